// The scheduled cleanup: expired screenshots with their images, and old capture requests.
import { log } from "../../core/log.js";
import { deleteOldRequests } from "./agents/registry.js";
import { deleteExpiredScreenshots } from "./store.js";

export async function cleanupExpired(now = new Date()): Promise<{ screenshots: number; requests: number }> {
  const screenshots = await deleteExpiredScreenshots(now);
  const requests = await deleteOldRequests(now.getTime());
  log.info("fotos cleanup", { screenshots, requests });
  return { screenshots, requests };
}
