// Where the function keeps a person's Fotos settings (users/{uid}/fotos/settings): what
// settings://current and every tool read (cloud.ts), and what the person's home page writes.
import { firestore } from "../../platform/firebase.js";
import { DEFAULT_SETTINGS, SETTING_HELP, settingsFrom, type Settings } from "./settings.js";

export const settingsDoc = (uid: string) => firestore().collection("users").doc(uid).collection("fotos").doc("settings");

export const readSettings = async (uid: string): Promise<Settings> => settingsFrom((await settingsDoc(uid).get()).data());

/** A setting as the home page shows it: its path, default, current value and sentence. */
export interface SettingField {
  path: string;
  value: string | number | boolean;
  default: string | number | boolean;
  does: string;
  choices?: readonly string[];
}

const leaves = (o: unknown, prefix = ""): [string, string | number | boolean][] =>
  Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => (v && typeof v === "object" ? leaves(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v as string | number | boolean]]));
const at = (o: unknown, path: string): unknown => path.split(".").reduce<unknown>((x, k) => (x as Record<string, unknown> | undefined)?.[k], o);

export async function settingFields(uid: string): Promise<SettingField[]> {
  const current = await readSettings(uid);
  return leaves(DEFAULT_SETTINGS).map(([path, def]) => ({ path, default: def, value: at(current, path) as SettingField["value"], does: SETTING_HELP[path]?.does ?? "", ...(SETTING_HELP[path]?.choices ? { choices: SETTING_HELP[path].choices } : {}) }));
}

/**
 * Saves the settings a form sent (every field as text): each is checked against its default's
 * type and its choices; nothing is saved when one is wrong (the error names it). Fields not sent
 * keep their value.
 */
export async function saveSettingsForm(uid: string, form: Record<string, string>): Promise<Settings> {
  const next = structuredClone(await readSettings(uid)) as unknown as Record<string, Record<string, unknown>>;
  for (const [path, def] of leaves(DEFAULT_SETTINGS)) {
    const raw = form[path];
    if (raw === undefined) continue;
    const text = raw.trim();
    let value: string | number | boolean;
    if (typeof def === "boolean") {
      if (text !== "true" && text !== "false") throw new SettingError(path, "must be yes or no");
      value = text === "true";
    } else if (typeof def === "number") {
      value = Number(text);
      if (!text || !Number.isFinite(value) || value < 0 || value > 100_000) throw new SettingError(path, "must be a number from 0 to 100000");
    } else {
      if (!text || text.length > 200) throw new SettingError(path, "must be between 1 and 200 characters");
      const choices = SETTING_HELP[path]?.choices;
      if (choices && !choices.includes(text)) throw new SettingError(path, `must be one of ${choices.join(", ")}`);
      value = text;
    }
    const keys = path.split(".");
    let o = next as Record<string, unknown>;
    for (const k of keys.slice(0, -1)) o = o[k] as Record<string, unknown>;
    o[keys[keys.length - 1]!] = value;
  }
  const saved = settingsFrom(next);
  await settingsDoc(uid).set(saved);
  return saved;
}

export class SettingError extends Error {
  override readonly name = "SettingError";
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path} ${reason}`);
  }
}
