// The knowledge domain's view in the conversation (built from views/results.ts).
import { viewResource } from "../../mcp/view.js";

export const RESULTS_VIEW = viewResource({
  domain: "knowledge",
  name: "results",
  title: "Search results",
  description: "search_semantic and search_by_metadata as result cards: title, author, source, date, the matched words highlighted, why each matched; a chunk and its related chunks open through the server.",
});
