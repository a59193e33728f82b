// The prompt templates: one user message each, telling the model which tools to use and
// how to structure its answer.
import { z } from "zod";
import { type SignedInContext } from "../../../mcp/define.js";
import { prompt } from "../../../mcp/signed-in.js";
import { storeFor } from "../backend.js";

const authors = (prefix: string, ctx: SignedInContext) => storeFor(ctx).valuesStartingWith("authors", prefix);
const tags = (prefix: string, ctx: SignedInContext) => storeFor(ctx).valuesStartingWith("tags", prefix);
const chunkIds = (prefix: string, ctx: SignedInContext) => storeFor(ctx).chunkIdsStartingWith(prefix);

export const findInsightsAbout = prompt(
  {
    name: "find_insights_about",
    title: "Find insights about a topic",
    description: "Search my reading highlights and notes for insights about a topic and synthesise them.",
    argsSchema: z.object({ topic: z.string().min(1).max(500).describe("The topic to explore, e.g. decision making") }),
  },
  async ({ topic }) =>
    [
      `I want to know what insights my knowledge base holds about: "${topic}".`,
      "",
      "Please:",
      `1. Call search_semantic with query "${topic}" and limit 10. If fewer than 5 results are relevant, try one or two rephrasings of the topic.`,
      "2. For the 2 or 3 most relevant chunks, call get_related_chunks (exclude_same_document: true) to find connections in other books and notes.",
      "3. Answer with:",
      "   - **Key insights**: 3-7 bullet points, each citing its source as *Title* — Author (chunk_id).",
      "   - **Common themes**: what several sources agree on.",
      "   - **Tensions**: where sources disagree or add nuance.",
      "   - **Worth re-reading**: the 2-3 chunks most worth revisiting, and why.",
      "Quote sparingly and only from the retrieved chunks; if my knowledge base has little on this topic, say so plainly.",
    ].join("\n"),
);

export const authorDeepDive = prompt(
  {
    name: "author_deep_dive",
    title: "Author deep dive",
    description: "Explore everything I have saved from one author.",
    argsSchema: z.object({ author: z.string().min(1).max(500).describe("Author name exactly as stored (see get_stats)") }),
    complete: { author: authors },
  },
  async ({ author }) =>
    [
      `Give me a deep dive into what I have saved from ${author}.`,
      "",
      "Please:",
      `1. Call search_by_metadata with author "${author}" and limit 50 (also read kxhub://chunks/by-author/${encodeURIComponent(author)} if you need more context).`,
      `2. Call search_semantic with a query describing ${author}'s main ideas and author "${author}" to find the most central passages.`,
      "3. Call get_related_chunks (exclude_same_document: true) on the 2 most central chunks to see how other authors in my knowledge base connect to these ideas.",
      "4. Answer with:",
      "   - **Overview**: which works and how many highlights I have saved.",
      "   - **Core ideas**: 3-6 main ideas, each with a short quote and its chunk_id.",
      "   - **Connections**: links to other authors found in step 3.",
      "   - **Questions to reflect on**: 2-3 questions these highlights raise.",
    ].join("\n"),
);

export const tagExploration = prompt(
  {
    name: "tag_exploration",
    title: "Tag exploration",
    description: "Explore the chunks I have tagged with one tag and the patterns across them.",
    argsSchema: z.object({ tag: z.string().min(1).max(200).describe("A tag from my knowledge base (see get_stats)") }),
    complete: { tag: tags },
  },
  async ({ tag }) =>
    [
      `Explore what I have tagged "${tag}".`,
      "",
      "Please:",
      `1. Call search_by_metadata with tags ["${tag}"] and limit 50.`,
      `2. Call search_semantic with the query "${tag}" (no filter) to find related chunks that lack the tag.`,
      "3. Answer with:",
      "   - **Summary**: what this tag covers, in 2-3 sentences.",
      "   - **Clusters**: group the tagged chunks into 2-5 sub-themes, each with representative chunk_ids and sources.",
      "   - **Untagged but related**: chunks from step 2 that probably deserve the tag.",
      "   - **Gaps**: aspects of the topic my knowledge base does not cover yet.",
    ].join("\n"),
);

export const relatedToChunk = prompt(
  {
    name: "related_to_chunk",
    title: "Related to a chunk",
    description: "Find and explain the connections between one chunk and the rest of my knowledge base.",
    argsSchema: z.object({ chunk_id: z.string().min(1).max(200).describe("chunk_id of the chunk to start from") }),
    complete: { chunk_id: chunkIds },
  },
  async ({ chunk_id }) =>
    [
      `Show me how this chunk connects to the rest of my knowledge base: ${chunk_id}.`,
      "",
      "Please:",
      `1. Read kxhub://chunk/${encodeURIComponent(chunk_id)} for its full content and metadata.`,
      `2. Call get_related_chunks with chunk_id "${chunk_id}", limit 10 and exclude_same_document true.`,
      "3. Answer with:",
      "   - **The original idea**: one or two sentences.",
      "   - **Connections**: for each strongly related chunk (similarity shown), what links it to the original: agreement, extension, example or contradiction. Cite title, author and chunk_id.",
      "   - **Synthesis**: one paragraph combining these ideas into something new.",
    ].join("\n"),
);
