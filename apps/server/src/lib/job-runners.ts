/** The periodic jobs the job clock can run at a named instant (modules/job-clock). */
export const CLOCKED_JOBS = ['autopay_charges', 'payment_reminders', 'auto_lock'] as const;
export type TClockedJob = (typeof CLOCKED_JOBS)[number];

/** One run of a job as if it were `at` (UTC); answers what it did, as counts by name. */
export type TJobRun = (at: Date) => Promise<Record<string, number>>;

/**
 * The periodic jobs by name, each as one run at a given instant: the module that owns a job
 * registers it here (the scheduler runs it at the present instant on its own timer), and the job
 * clock, where it is on, runs it at another. Throws on a name registered twice or never.
 */
export class JobRunners {
  private readonly runs = new Map<TClockedJob, TJobRun>();

  /** Registers the run of `name`; throws when it is already registered. */
  register(name: TClockedJob, run: TJobRun): void {
    if (this.runs.has(name)) throw new Error(`job ${name} is registered twice`);
    this.runs.set(name, run);
  }

  /** Runs `name` as if it were `at`; throws when no module registered it. */
  run(name: TClockedJob, at: Date): Promise<Record<string, number>> {
    const run = this.runs.get(name);
    if (!run) throw new Error(`job ${name} is not registered`);
    return run(at);
  }
}
