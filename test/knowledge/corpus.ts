// A small corpus written to a temp folder for each test file: Markdown, Kindle clippings, a
// Readwise export, and two files the importer must report and skip.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const HABITS_MD = `---
title: Habit Notes
author: Test Author
source: markdown
tags: [habits, growth]
date: 2023-05-01
---
# Habit Notes

Small daily routines compound over time. A one percent improvement every day adds up to remarkable results over a year, while a one percent decline quietly erodes everything you built. The change is invisible on any single day, which is exactly why most people give up before the curve bends upward.

Environment design matters more than willpower. Put the fruit on the counter and the biscuits in a high cupboard; leave the guitar on its stand in the middle of the room and the television remote in a drawer. Each small nudge reduces the effort of the good choice and adds friction to the bad one, and friction is cheap.

Never miss twice. Missing one day is an accident that happens to everyone; missing two days in a row is the beginning of a new pattern. When a routine breaks, the goal is not to make up for the lost day with heroic effort but simply to show up again tomorrow in the smallest possible way.

Identity follows evidence. Each workout is a vote for being an athlete, each page a vote for being a writer. Goals tell you where you want to go, but the votes you cast every day decide who you are becoming, and the identity in turn makes the next vote easier.
`;

export const CLIPPINGS = `Sleep Well (Dr. Night)
- Your Highlight on page 12 | Location 100-102 | Added on Monday, March 4, 2024 10:15:32 PM

To fall asleep faster, keep the bedroom dark and cool and avoid screens before bed.
==========
Sleep Well (Dr. Night)
- Your Highlight on page 20 | Location 180-182 | Added on Tuesday, March 5, 2024 9:00:00 PM

Caffeine lingers in the blood for many hours, so an afternoon coffee can still be working at midnight.
==========
Sleep Well (Dr. Night)
- Your Bookmark on page 22 | Location 200 | Added on Tuesday, March 5, 2024 9:05:00 PM


==========
Sleep Well (Dr. Night)
- Your Highlight on page 31 | Location 250-251 | Added on Wednesday, March 6, 2024 8:00:00 PM

A regular wake-up time, even at weekends, anchors the body clock better than any supplement.
==========
Sleep Well (Dr. Night)
- Your Note on page 31 | Location 251 | Added on Wednesday, March 6, 2024 8:01:00 PM

Try the fixed wake-up time for a month.
==========
Money Matters (Penny Saver)
- Your Highlight on page 5 | Location 40-44 | Added on Friday, April 12, 2024 7:30:00 AM

When the central bank raises interest rates, future cash flows are worth less and share prices fall.
==========
Money Matters (Penny Saver)
- Your Highlight on page 9 | Location 60-62 | Added on Saturday, April 13, 2024 7:30:00 AM

Fees compound just like returns, only in the wrong direction.
==========
Money Matters (Penny Saver)
- Your Highlight on page 14 | Location 90-93 | Added on Sunday, April 14, 2024 7:30:00 AM

An emergency fund is what lets your investments stay invested when life goes wrong.
==========
`;

export const READWISE = `Highlight,Book Title,Book Author,Amazon Book ID,Note,Color,Tags,Location Type,Location,Highlighted at,Document tags
"Feed the soil, not the plant: compost and worms do more for tomatoes than any fertiliser.",Garden Days,Flora Green,,,yellow,"gardening, soil",location,10,2025-02-01 10:00:00+00:00,nature
"Water deeply and rarely, so that roots grow downward in search of moisture.",Garden Days,Flora Green,,"Remember for the allotment",yellow,gardening,location,20,2025-02-03 10:00:00+00:00,nature
"Mulch keeps the ground cool, holds moisture and feeds the earth as it breaks down.",Garden Days,Flora Green,,,yellow,"gardening, soil",location,30,2025-02-05 10:00:00+00:00,nature
"Phytoplankton, tiny drifting plants, produce about half of the oxygen we breathe.",Ocean Notes,Marina Blue,,,blue,ocean,location,5,2025-03-01 09:00:00+00:00,science
"Coral reefs cover a tiny fraction of the sea floor yet shelter a quarter of all marine species.",Ocean Notes,Marina Blue,,,blue,"ocean, biodiversity",location,15,2025-03-02 09:00:00+00:00,science
"Tides are the pull of the moon and sun on the oceans.",Ocean Notes,Marina Blue,,,blue,ocean,location,25,2025-03-03 09:00:00+00:00,science
`;

export const EXPECTED = {
  documents: 5,
  authors: ["Dr. Night", "Flora Green", "Marina Blue", "Penny Saver", "Test Author"],
  sources: ["kindle", "markdown", "readwise"],
  kindleChunks: 7, // 3 + 1 note in Sleep Well (bookmark skipped), 3 in Money Matters
  readwiseChunks: 6,
};

export type CorpusFiles = Record<"habits" | "clippings" | "readwise" | "notReadwise" | "binary", string>;

export async function writeCorpus(): Promise<{ dir: string; files: CorpusFiles }> {
  const dir = await mkdtemp(join(tmpdir(), "kb-corpus-"));
  const files: CorpusFiles = {
    habits: join(dir, "habit-notes.md"),
    clippings: join(dir, "My Clippings.txt"),
    readwise: join(dir, "readwise.csv"),
    notReadwise: join(dir, "numbers.csv"),
    binary: join(dir, "broken.txt"),
  };
  await writeFile(files.habits, HABITS_MD);
  await writeFile(files.clippings, CLIPPINGS);
  await writeFile(files.readwise, READWISE);
  await writeFile(files.notReadwise, "foo,bar\n1,2\n");
  await writeFile(files.binary, Buffer.from([0x48, 0x00, 0x01, 0x02]));
  return { dir, files };
}

/** Content words shared by two texts (to prove a semantic hit shares no keywords). */
export function sharedWords(a: string, b: string): string[] {
  const stop = new Set("a an the and or of to in on at for with by from is are be can do does how what where when why we our you your it its this that as any than more".split(" "));
  const words = (s: string) => new Set(s.toLowerCase().match(/[a-z]+/g)?.filter((w) => !stop.has(w)) ?? []);
  const wb = words(b);
  return [...words(a)].filter((w) => wb.has(w) || [...wb].some((x) => x.length > 4 && w.length > 4 && (x.startsWith(w.slice(0, 5)) || w.startsWith(x.slice(0, 5)))));
}
