import { AppError } from '@marketplace/errors';
import type { RevocationList, TokenRevocations } from '../usecases/ports';

/**
 * The revoked tenant-token ids of every tenant, held in this process and read again from MongoDB
 * every `refreshMs` (TOKEN_REVOCATION_REFRESH_SECONDS): a revocation takes effect on every gateway
 * instance within that time, and at once on the instance that made it (`add`). Only revoked tokens
 * not yet expired are listed, so the set stays small. A list older than twice `refreshMs` (the
 * database slow or away) is never trusted: the check reads it again and, failing that, answers 503
 * rather than let a revoked token through.
 */
export class RevokedTokenIds implements TokenRevocations, RevocationList {
  private ids = new Set<string>();
  /** When the read behind `ids` started (monotonic ms); -Infinity before the first. */
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;
  /** Revoked here since a read started: kept until a read that started after them has them. */
  private readonly added = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly load: (now: Date) => Promise<string[]>,
    private readonly refreshMs: number,
    private readonly options: {
      now?: () => Date;
      /** Monotonic milliseconds (tests pass their own). */
      clock?: () => number;
      onRefreshFailed?: (error: unknown) => void;
    } = {},
  ) {}

  private clock(): number {
    return this.options.clock?.() ?? performance.now();
  }

  /** Reads the list again (one read at a time: a caller during a read waits for it). */
  refresh(): Promise<void> {
    this.loading ??= (async () => {
      const started = this.clock();
      try {
        const loaded = new Set(await this.load(this.options.now?.() ?? new Date()));
        for (const [id, at] of this.added) {
          if (at >= started) loaded.add(id);
          else this.added.delete(id);
        }
        this.ids = loaded;
        this.loadedAt = started;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  async isRevoked(tokenId: string): Promise<boolean> {
    if (this.clock() - this.loadedAt > 2 * this.refreshMs) {
      try {
        await this.refresh();
      } catch (error) {
        this.options.onRefreshFailed?.(error);
        throw new AppError(
          'unavailable',
          'service.unavailable',
          'The service is temporarily unavailable; try again shortly.',
          {
            cause: error,
            retryAfterSeconds: 1,
          },
        );
      }
    }
    return this.ids.has(tokenId);
  }

  /** A revocation made by this process: in effect here at once. */
  add(tokenId: string): void {
    this.ids.add(tokenId);
    this.added.set(tokenId, this.clock());
  }

  /** Reads the list every `refreshMs` in the background (a failed read is reported and retried). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.options.onRefreshFailed?.(error));
    }, this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
