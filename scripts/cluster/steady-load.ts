/** One request of the load: when it started and ended, and what came back. */
export interface Sent {
  startedAt: number;
  endedAt: number;
  /** The HTTP status, or the error's message when none came. */
  outcome: number | string;
  /** The start of the body of an answer other than 200, to tell which part refused. */
  body?: string;
}

export interface SteadyLoad {
  /** The requests answered so far (each with an outcome). */
  sent(): readonly Sent[];
  /** Lets the requests under way finish, sends no more, and returns every one. */
  stop(): Promise<Sent[]>;
}

/**
 * `concurrency` clients, each sending GET `url` again as soon as it has its answer, each
 * request bounded by `timeoutMs`: a fixed number of requests in flight all the time, so that
 * a failure shows as a failed request rather than as a slower rate.
 */
export function steadyLoad(
  url: string,
  options: { headers: Record<string, string>; concurrency: number; timeoutMs?: number },
): SteadyLoad {
  const sent: Sent[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const startedAt = Date.now();
      const answer = await fetch(url, {
        headers: options.headers,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      }).then(
        async (response): Promise<Pick<Sent, 'outcome' | 'body'>> => {
          if (response.status === 200) {
            await response.body?.cancel();
            return { outcome: 200 };
          }
          return { outcome: response.status, body: (await response.text()).slice(0, 300) };
        },
        (error: unknown) => ({ outcome: error instanceof Error ? error.message : String(error) }),
      );
      sent.push({ startedAt, endedAt: Date.now(), ...answer });
    }
  };
  const clients = Array.from({ length: options.concurrency }, client);
  return {
    sent: () => sent,
    async stop() {
      running = false;
      await Promise.all(clients);
      return sent;
    },
  };
}
