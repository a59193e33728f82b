// Views import their styles; the view build (scripts/build-views.mjs) inlines them.
declare module "*.css";
