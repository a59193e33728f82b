// Bridged mode for a host that only passes the fotos URL (FOTOS_SERVER: the Claude Desktop
// extension's "Fotos function URL" field) and has no terminal for `fotos-agent mcp pair`: the first
// call starts the device flow, and every call until the person confirms the code answers with the
// code and the page to open (also written on stderr). Once confirmed, the credential is saved like
// `fotos-agent mcp pair` saves it, so the next start is bridged at once, and calls go to the function.
import { type DomainDefinition, type FotosBackend, unauthenticated, unavailable } from "../../../functions/src/domains/fotos/published.js";
import { mcpCredentialsPath } from "../config.js";
import { MCP_CLIENT_ID, pair } from "../pairing.js";
import { Bridge, bridgedDomain } from "./bridge.js";

type Members = Pick<DomainDefinition, "tools" | "resources" | "prompts">;

export class PairOnUse {
  private bridge?: Bridge;
  private members?: Members;
  private pending?: { userCode: string; urlComplete: string };
  private pairing?: Promise<void>;
  private failure?: string;

  constructor(
    readonly server: string,
    private readonly log: (line: string) => void,
  ) {}

  /** The bridge once paired; before, starts pairing (once) and throws the sentence that says what to confirm. */
  ready(): Bridge {
    if (this.bridge) return this.bridge;
    this.pairing ??= this.startPairing();
    if (this.failure) {
      const failure = this.failure;
      this.pairing = undefined; // the next call tries again
      this.failure = undefined;
      throw unavailable(`Could not start pairing with your fotos function at ${this.server} (${failure}). Check the URL in the extension's settings, or leave it empty to work on this computer only`);
    }
    if (!this.pending) throw unauthenticated(`Pairing with your fotos function at ${this.server} is starting: call the tool again in a few seconds to get the code to confirm`);
    throw unauthenticated(
      `This computer is not yet allowed to use your fotos function at ${this.server}. Open ${this.pending.urlComplete}, sign in and confirm the code ${this.pending.userCode}; then call the tool again`,
    );
  }

  private startPairing(): Promise<void> {
    this.pending = undefined;
    return pair({
      server: this.server,
      clientId: MCP_CLIENT_ID,
      path: mcpCredentialsPath(),
      show: (userCode, _url, urlComplete) => {
        this.pending = { userCode, urlComplete };
        this.log(`To let AI apps on this computer use your Fotos at ${this.server}, open ${urlComplete} and confirm the code ${userCode}`);
      },
    }).then(
      (creds) => {
        this.bridge = new Bridge(creds);
        this.log(`paired with ${creds.server}; the credential is saved in ${mcpCredentialsPath()}`);
      },
      (err: Error) => {
        this.failure = err.message.split("\n")[0]!.slice(0, 200);
        this.pending = undefined;
      },
    );
  }

  /** The fotos members, each call bridged once paired (and saying what to confirm until then). */
  domain(): Members {
    const bridged = (): Members => (this.members ??= bridgedDomain(this.ready()));
    // The definitions (names, schemas, descriptions) without a bridge; only their calls need one.
    const shape = bridgedDomain(undefined as unknown as Bridge);
    const later = <T extends { name: string }>(members: T[], current: () => T[]): T[] =>
      members.map((m) => {
        const forwarded: Record<string, unknown> = { ...m };
        for (const [key, value] of Object.entries(m)) {
          if (typeof value === "function") forwarded[key] = (...args: unknown[]) => (current().find((c) => c.name === m.name) as unknown as Record<string, (...a: unknown[]) => unknown>)[key]!(...args);
        }
        return forwarded as T;
      });
    return {
      tools: later(shape.tools, () => bridged().tools),
      resources: later(shape.resources ?? [], () => bridged().resources ?? []),
      prompts: later(shape.prompts ?? [], () => bridged().prompts ?? []),
    };
  }

  /** take_screenshot's backend: the bridge's, once paired. */
  backend(): FotosBackend {
    return this.ready().backend();
  }
}
