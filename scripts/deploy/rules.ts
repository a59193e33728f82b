// Security rules compile offline in the Firestore emulator's rules engine (the same language
// compiler production uses): PUT the ruleset to a throw-away project and read back its issues.
// Storage rules go through the same compiler (the Storage emulator's own rules runtime cannot be
// downloaded here, see scripts/emulator/offline.sh): syntax, functions and expressions are
// checked; Storage-only members (request.resource.size, contentType…) are not type-checked.
export interface RulesIssue {
  file: string;
  line: number;
  column: number;
  message: string;
}

export async function compileRules(emulatorHost: string, file: string, content: string): Promise<RulesIssue[]> {
  const project = `demo-rules-check-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const res = await fetch(`http://${emulatorHost}/emulator/v1/projects/${project}:securityRules`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rules: { files: [{ name: file, content }] } }),
  });
  if (res.ok) return [];
  const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
  const message = body.error?.message ?? `HTTP ${res.status}`;
  // "Error compiling rules:\nL12:5 Unexpected ';'."
  const issues = [...message.matchAll(/^L(\d+):(\d+) (.*)$/gm)].map((m) => ({ file, line: Number(m[1]), column: Number(m[2]), message: m[3]! }));
  return issues.length ? issues : [{ file, line: 0, column: 0, message }];
}
