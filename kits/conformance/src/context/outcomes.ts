/**
 * How a test ends early: a failed check or a skip is thrown as one of these, and the runner tells
 * them apart from an unexpected exception (a bug in the test, or a provider answer it did not
 * foresee), which also fails the test but names the exception.
 */

export class TestFailure extends Error {
  readonly kind = 'fail' as const;
  constructor(message: string) {
    super(message);
    this.name = 'TestFailure';
  }
}

/**
 * A wait for a status that can no longer come: the delivery ended in another terminal status
 * (the sandbox failed it, say). A test that needs a delivery in some status may ride another.
 */
export class StatusNeverReached extends TestFailure {
  constructor(
    message: string,
    readonly ended: string,
  ) {
    super(message);
    this.name = 'StatusNeverReached';
  }
}

export class TestSkip extends Error {
  readonly kind = 'skip' as const;
  constructor(reason: string) {
    super(reason);
    this.name = 'TestSkip';
  }
}

/** Thrown into a test's waits once the runner gave up on it (its time is over), so it stops soon. */
export class TestAborted extends Error {
  readonly kind = 'aborted' as const;
  constructor() {
    super('the test was stopped: its time was over');
    this.name = 'TestAborted';
  }
}

export const isTestFailure = (error: unknown): error is TestFailure => error instanceof TestFailure;
export const isTestSkip = (error: unknown): error is TestSkip => error instanceof TestSkip;
