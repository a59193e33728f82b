// What a person's home page (the oauth function's /home) reads and changes in the other functions'
// data: their Fotos settings, their knowledge base, and all of it to export or erase. A domain never imports another, so the
// entry point (index.ts) hands the page each domain's module to load when it is needed.
export interface SettingFieldView {
  path: string;
  value: string | number | boolean;
  default: string | number | boolean;
  does: string;
  choices?: readonly string[];
}

export interface DocumentView {
  id: string;
  title: string;
  author: string;
  source: string;
  chunks: number;
  updated: string;
}

/** The Readwise sync as the page shows it: never the token. */
export interface ReadwiseView {
  connected: boolean;
  savedAt?: string;
  lastSync?: string;
  lastResult?: string;
}

/** One file the person dropped on their home page, and what became of it. */
export interface QueuedImportView {
  id: string;
  path: string;
  status: "queued" | "processing" | "imported" | "unchanged" | "skipped" | "failed";
  /** Why it was skipped or failed. */
  detail?: string;
  documents: { title: string; status: "imported" | "updated" | "unchanged"; chunks: number }[];
}

/**
 * Each module also exports everything its function keeps for the person (JSON-able) and erases
 * it, returning how many records went; records another app writes (DermalVision's) have none.
 */
export interface PersonDataModules {
  fotos(): Promise<{
    settingFields(uid: string): Promise<SettingFieldView[]>;
    /** Throws an Error whose message names the wrong setting; saves nothing then. */
    saveSettingsForm(uid: string, form: Record<string, string>): Promise<unknown>;
    exportFotos(uid: string): Promise<unknown>;
    eraseFotos(uid: string): Promise<number>;
  }>;
  knowledge(): Promise<{
    listDocuments(uid: string): Promise<DocumentView[]>;
    deleteDocument(uid: string, id: string): Promise<DocumentView | undefined>;
    exportKnowledge(uid: string): Promise<{ path: string; markdown: string }[]>;
    eraseKnowledge(uid: string): Promise<number>;
    /** Errors named "ReadwiseError" carry a sentence for the person. */
    readwise: {
      status(uid: string): Promise<ReadwiseView>;
      save(uid: string, token: string): Promise<void>;
      remove(uid: string): Promise<void>;
      syncNow(uid: string): Promise<{ books: number; highlights: number }>;
    };
    /** Files dropped on the page: kept, then imported in the background (one per call of next). */
    imports: {
      enqueue(uid: string, path: string, content: string): Promise<QueuedImportView>;
      list(uid: string): Promise<QueuedImportView[]>;
      next(uid: string): Promise<QueuedImportView | undefined>;
    };
  }>;
  figma(): Promise<{
    exportFigma(uid: string): Promise<unknown>;
    eraseFigma(uid: string): Promise<number>;
  }>;
}

let modules: PersonDataModules | undefined;

/** Called once by the entry point. */
export const providePersonData = (m: PersonDataModules): void => {
  modules = m;
};

export function personData(): PersonDataModules {
  if (!modules) throw new Error("the person's data modules were not provided (index.ts)");
  return modules;
}
