// What the suite hands a model as a picture: the mermaid engine's PNGs and every tool's images.

/** Longest image side we hand to a model. */
export const MAX_IMAGE_SIDE = 1568;
