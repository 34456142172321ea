/**
 * An HTTP edge as a declared list of named steps. Each step either answers the request
 * (refuses it, or serves it) and nothing after it runs, or hands it on, possibly knowing
 * more about it (the caller, the body). The list is the security model: it reads top to
 * bottom in one place, and its types refuse a step placed before what it needs (the rate
 * limit before the caller is known, the fast path before the body is read).
 *
 * Our own compose, not Hono on @hono/node-server: the MCP SDK's Node adapter and the fast
 * path both want the raw Node request and response, which Hono wraps in web Request and
 * Response objects on every request (the very cost the fast path exists to avoid); and
 * Hono's `next()` chain allocates a closure per step per request, where a list of steps
 * that return "answered" or the next context needs a loop and nothing else. A step that
 * finishes synchronously costs no await.
 *
 * It lives in core/ because both edges compose with it (server/ for /mcp, console/ for the
 * console) and neither may import the other; it is pure and imports nothing.
 */

/** What a step returns when it has answered the request: nothing after it runs. */
export const ANSWERED: unique symbol = Symbol('answered');
export type Answered = typeof ANSWERED;

export interface Step<In, Out = In> {
  /** Stable, kebab-case: it names the step in the edge's list and in tests. */
  readonly name: string;
  /** A property, not a method: so the compiler checks what it takes strictly (no bivariance). */
  readonly run: (ctx: In) => Out | Answered | Promise<Out | Answered>;
}

/** A whole edge, built: the names of its steps in order, and the function that serves a request. */
export interface Edge<Start> {
  readonly steps: readonly string[];
  run(ctx: Start): Promise<void>;
}

/** The edge being declared, typed by what the request is known to carry after the last step. */
export interface Pipeline<Start, Now> {
  then<Next>(step: Step<Now, Next>): Pipeline<Start, Next>;
  /** The last step must answer: its type leaves it no way to hand the request on. */
  end(last: Step<Now, never>): Edge<Start>;
}

export function pipeline<Start>(): Pipeline<Start, Start> {
  return grow<Start, Start>([]);
}

// The steps list is untyped inside; `then` is what holds each step to the one before.
type AnyStep = Step<unknown, unknown>;

function grow<Start, Now>(steps: readonly AnyStep[]): Pipeline<Start, Now> {
  return {
    then: <Next>(step: Step<Now, Next>) => grow<Start, Next>([...steps, step as AnyStep]),
    end: (last: Step<Now, never>) => compose<Start>([...steps, last as AnyStep]),
  };
}

function compose<Start>(steps: readonly AnyStep[]): Edge<Start> {
  const list = Object.freeze([...steps]);
  const names = new Set<string>();
  for (const s of list) {
    if (names.has(s.name)) throw new Error(`two steps named ${s.name}`);
    names.add(s.name);
  }
  return {
    steps: Object.freeze(list.map((s) => s.name)),
    async run(start: Start): Promise<void> {
      let ctx: unknown = start;
      for (let i = 0; i < list.length; i++) {
        let out = list[i]!.run(ctx);
        if (out instanceof Promise) out = await out;
        if (out === ANSWERED) return;
        ctx = out;
      }
      throw new Error('the last step of an edge handed the request on');
    },
  };
}
