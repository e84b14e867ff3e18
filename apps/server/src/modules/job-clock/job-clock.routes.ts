import { AppError, AppErrorCode } from '@kisht/domain/common/errors';
import { paths } from '@kisht/domain/paths';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context';
import { ok } from '../../lib/envelope';
import { CLOCKED_JOBS } from '../../lib/job-runners';
import { requireSession } from '../../plugins/auth';

/** POST paths.jobClock.run: which job, and the instant (ISO 8601 with an offset) to run it as. */
export const ZJobClockRun = z.object({
  job: z.enum(CLOCKED_JOBS),
  at: z.iso.datetime({ offset: true, message: 'An ISO 8601 instant, e.g. 2026-12-10T09:30:00+05:30' }),
});

/**
 * The job clock (config JOB_CLOCK; registered only then, and never in production): runs one
 * periodic job (the AutoPay charges, the payment reminders, the auto-lock ladder) once as if it
 * were `at`, so a journey or a demo sees a due date's debit, its reminders and the lock after
 * grace without waiting for the calendar. Any signed-in shop or admin may call it; it acts on
 * every organisation, as the scheduler does, so it is not part of the API's contract (hidden from
 * /docs). A customer gets 403; bad input 400 naming the field.
 */
export const jobClockRoutes = async (app: FastifyInstance, ctx: AppContext) => {
  requireSession(app, ctx);
  app.withTypeProvider<ZodTypeProvider>().route({
    method: 'POST',
    url: paths.jobClock.run,
    schema: { hide: true, body: ZJobClockRun },
    handler: async (request) => {
      if (request.actor.userType === 'customer')
        throw new AppError(AppErrorCode.FORBIDDEN, 'Only shops and admins run the job clock');
      const { job, at } = request.body;
      const counts = await ctx.jobs.run(job, new Date(at));
      request.log.info({ job, at, counts }, 'job clock ran a job');
      return ok({ job, at, counts }, `${job} ran as of ${at}`);
    },
  });
};
