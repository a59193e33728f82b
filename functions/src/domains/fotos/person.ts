// A person's Fotos settings as their home page shows and saves them (the settings store the tools read).
export { saveSettingsForm, settingFields } from "./settings-store.js";
