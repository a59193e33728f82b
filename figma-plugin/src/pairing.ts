// The plugin pairs with the person's account through the suite's device-flow client
// (functions/src/contracts/device-flow.ts), as the figma-plugin device client.
import type { DeviceClient } from "../../functions/src/contracts/device-flow.js";

export const PLUGIN_CLIENT: DeviceClient = {
  clientId: "figma-plugin",
  thisDevice: "This plugin",
  pairAgain: "click “Pair with my account” to pair it again",
};

/** What the plugin keeps (figma.clientStorage) between runs. */
export interface Credential {
  deviceId: string;
  /** The device credential (an OAuth refresh token, rotated at each refresh: the newest is kept here); revocable on the account's /apps page. */
  refreshToken: string;
}
