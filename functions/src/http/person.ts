// What a person's home page (the oauth function's /home) reads and changes in the other functions'
// data: their Fotos settings and their knowledge base. A domain never imports another, so the
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

export interface PersonDataModules {
  fotos(): Promise<{
    settingFields(uid: string): Promise<SettingFieldView[]>;
    /** Throws an Error whose message names the wrong setting; saves nothing then. */
    saveSettingsForm(uid: string, form: Record<string, string>): Promise<unknown>;
  }>;
  knowledge(): Promise<{
    listDocuments(uid: string): Promise<DocumentView[]>;
    deleteDocument(uid: string, id: string): Promise<DocumentView | undefined>;
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
