import { istWallClockToIso } from '@kisht/domain/common/time';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import type { TRunAtProblem } from '../../../lib/india-time';
import { defaultRunAtLocal, runAtProblem, scheduleBounds } from '../../../lib/india-time';

/** The message of each reason a picked time cannot be used. */
const PROBLEM_KEYS: Record<TRunAtProblem, ParseKeys> = {
  invalid: 'schedule.errors.invalid',
  tooSoon: 'schedule.errors.tooSoon',
  tooLate: 'schedule.errors.tooLate',
};

/** When a command goes: now, or at a time picked on India's clock (`YYYY-MM-DDTHH:mm`). */
export type TWhen = { isLater: boolean; local: string };

/** The first choice of when: now, with a later time ready (the next whole hour) should they switch. */
export const initialWhen = (now: number = Date.now()): TWhen => ({
  isLater: false,
  local: defaultRunAtLocal(now),
});

/**
 * Checks a choice of when: `{ runAt }` to send (undefined for now; ISO 8601 with +05:30 for
 * later), or `{ errorKey }` when the picked time is not a real time 1 minute to 90 days ahead.
 */
export const checkWhen = (
  when: TWhen,
  now: number = Date.now(),
): { runAt: string | undefined; errorKey?: undefined } | { runAt?: undefined; errorKey: ParseKeys } => {
  if (!when.isLater) return { runAt: undefined };
  const problem = runAtProblem(when.local, now);
  if (problem) return { errorKey: PROBLEM_KEYS[problem] };
  return { runAt: istWallClockToIso(when.local) ?? undefined };
};

type TRunAtFieldProps = {
  value: string;
  onChange: (local: string) => void;
  /** The message under the field, or null. */
  error: string | null;
  testId: string;
  autoFocus?: boolean;
};

/**
 * The date and time a command goes out, on India's clock (+05:30) whatever the browser's zone:
 * a native date-time picker bounded to 1 minute – 90 days ahead, with the picked time shown below
 * as the app shows every time (DD-MM-YYYY hh:mm A).
 */
export const RunAtField = ({ value, onChange, error, testId, autoFocus }: TRunAtFieldProps) => {
  const { t } = useTranslation();
  // Bounds as of opening: a dialog is not open for long, and the check on submit is exact.
  const [bounds] = useState(() => scheduleBounds(Date.now()));
  const iso = istWallClockToIso(value);
  return (
    <TextField
      type="datetime-local"
      label={t('schedule.dateTime')}
      name="run_at"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={Boolean(error)}
      helperText={
        error ?? (iso ? t('schedule.indiaTimeAt', { time: formatDateTime(iso) }) : t('schedule.indiaTime'))
      }
      required
      fullWidth
      autoFocus={autoFocus}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { min: bounds.min, max: bounds.max, step: 60, 'data-testid': testId },
      }}
    />
  );
};

type TWhenChoiceProps = {
  value: TWhen;
  onChange: (when: TWhen) => void;
  error: string | null;
  /** Prefix of the data-testids: `${prefix}-now`, `${prefix}-later`, `${prefix}-run-at`. */
  testIdPrefix: string;
};

/** Now, or "Schedule for later" with the date and time picker. */
export const WhenChoice = ({ value, onChange, error, testIdPrefix }: TWhenChoiceProps) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={1} sx={{ mt: 2 }}>
      <RadioGroup
        row
        name="when"
        value={value.isLater ? 'later' : 'now'}
        onChange={(_event, choice) => onChange({ ...value, isLater: choice === 'later' })}
        aria-label={t('schedule.when')}
      >
        <FormControlLabel
          value="now"
          control={<Radio slotProps={{ input: { 'data-testid': `${testIdPrefix}-now` } as object }} />}
          label={t('schedule.now')}
        />
        <FormControlLabel
          value="later"
          control={<Radio slotProps={{ input: { 'data-testid': `${testIdPrefix}-later` } as object }} />}
          label={t('schedule.later')}
        />
      </RadioGroup>
      {value.isLater ? (
        <RunAtField
          value={value.local}
          onChange={(local) => onChange({ ...value, local })}
          error={error}
          testId={`${testIdPrefix}-run-at`}
        />
      ) : null}
    </Stack>
  );
};
