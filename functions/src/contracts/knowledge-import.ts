// What `npm run kb:import -- --server <knowledge URL>` and the knowledge function agree on: the
// person's import from a terminal, signed in as them with a `kb-import` device token. The terminal
// reads the files (the importer's formats) and sends them a few at a time; the function parses,
// embeds with the deployment's embedder and imports them with the importer's limits and idempotence.
import { z } from "zod";

export const KNOWLEDGE_IMPORT_PATH = "/imports";
/** One request's files together (the terminal sends larger sets over several requests). */
export const MAX_IMPORT_REQUEST_BYTES = 4 * 1024 * 1024;

export const importRequestSchema = z.object({
  files: z
    .array(
      z.object({
        path: z.string().min(1).max(1000).describe("The file's path relative to the folder imported (identifies a note across imports)"),
        content: z.string().max(MAX_IMPORT_REQUEST_BYTES),
      }),
    )
    .min(1)
    .max(200),
});
export type ImportRequest = z.infer<typeof importRequestSchema>;

export interface ImportedFile {
  path: string;
  status: "ok" | "failed";
  error?: string;
  documents: { title: string; status: "imported" | "updated" | "unchanged"; chunks: number }[];
}

export interface ImportAnswer {
  files: ImportedFile[];
}
