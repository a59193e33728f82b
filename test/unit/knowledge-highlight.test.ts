// What the knowledge results view marks in a card: the words the search matched, found as the
// search found them (by their stems, in English and German) and quoted phrases whole.
import { expect, test } from "vitest";
import { matchRanges } from "../../functions/src/domains/knowledge/lexical.js";

const marked = (text: string, query: string) => matchRanges(text, query).map(([s, e]) => text.slice(s, e));

test("a query word marks its other forms, not words that merely contain it", () => {
  expect(marked("Habit Notes: small habits make routines", "habits routine")).toEqual(["Habit", "habits", "routines"]);
  expect(marked("Inhabitants of the habitat", "habits")).toEqual([]);
});

test("German forms and folded diacritics meet as in the search", () => {
  expect(marked("Die Häuser der Stadt, ein Haus am See", "Haus")).toEqual(["Häuser", "Haus"]);
});

test("a quoted phrase is marked whole; stop words alone mark nothing", () => {
  expect(marked("Deep work needs deep focus and work", '"deep work"')).toEqual(["Deep work", "deep", "work"]);
  expect(marked("the and of", "the of")).toEqual([]);
});
