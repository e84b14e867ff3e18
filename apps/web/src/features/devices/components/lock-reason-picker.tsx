import {
  commandOfferFor,
  isPaymentLockAllowed,
  locksScreen,
  type TCommandFacts,
  type TCommandOffer,
  type TCommandRefusal,
} from '@kisht/domain/devices/command-rules';
import { ZLockReason } from '@kisht/domain/devices/devices.schema';
import {
  LOCK_REASON_MAX,
  LOCK_REASON_MIN,
  LOCK_REASON_RULES,
  type TLockReasonCategory,
} from '@kisht/domain/devices/lock-reasons';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ParseKeys } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TApiError } from '../../../lib/http/base-query';

/** What the rules ask of a restriction's reason (commandOfferFor's `reason`, when there is one). */
export type TReasonOffer = NonNullable<Extract<TCommandOffer, { kind: 'allowed' }>['reason']>;

/** The reason fields of a request that may restrict a phone (domain ZReasonFields), as sent. */
export type TReasonFields = { reason_category?: TLockReasonCategory; reason?: string };

/** Why the picker says a reason is asked for, above the fields (or nothing to say). */
type TReasonWhy = 'paymentLockBarred' | 'nothingOverdue' | null;

/**
 * The translation key of why the rules refuse a command whatever the reason: a paid-up loan takes
 * no lock (`lock`) or no restriction (`restriction`); a released phone takes nothing.
 */
export const refusalKeyOf = (refusal: TCommandRefusal, subject: 'lock' | 'restriction'): ParseKeys => {
  if (refusal.code === 'DEVICE_RELEASED') return 'device.released';
  return subject === 'lock' ? 'device.lockRefused' : 'deviceControls.restrictRefused';
};

type TLockReasonPickerProps = {
  offer: TReasonOffer;
  /** The category shown: the one chosen, else the one the rules imply; '' for none. */
  category: TLockReasonCategory | '';
  onCategoryChange: (category: TLockReasonCategory | '') => void;
  note: string;
  onNoteChange: (note: string) => void;
  categoryError: string | null;
  noteError: string | null;
  why: TReasonWhy;
  /** The command leaves a lock screen, which tells the customer the category (LOCK_SCREEN_HEADLINES). */
  isShownOnPhone: boolean;
};

/**
 * Why a phone is restricted (issue 25): a choice of the categories the rules accept for this
 * customer and command (never an overdue EMI with nothing overdue or on managed Android), starting
 * on the one they imply (an overdue EMI while one is), and a note, required for "Other"
 * (LOCK_REASON_MIN to LOCK_REASON_MAX characters), optional otherwise. Both are recorded with the
 * command and its audit entry; a lock screen shows the category's headline, never the note.
 */
export const LockReasonPicker = ({
  offer,
  category,
  onCategoryChange,
  note,
  onNoteChange,
  categoryError,
  noteError,
  why,
  isShownOnPhone,
}: TLockReasonPickerProps) => {
  const { t } = useTranslation();
  const needsNote = category !== '' && LOCK_REASON_RULES[category].needsNote;
  const bounds = { min: LOCK_REASON_MIN, max: LOCK_REASON_MAX };
  const categoryHelp =
    category !== '' && category === offer.implied
      ? t('lockReason.impliedHelp')
      : isShownOnPhone
        ? t('lockReason.shownOnPhone')
        : t('lockReason.categoryHelp');
  return (
    <Stack spacing={1.5} sx={{ pt: 1.5 }} data-testid="lock-reason-picker">
      {why ? (
        <Alert severity="warning" data-testid="lock-reason-why">
          {why === 'paymentLockBarred'
            ? t('lockReason.whyPaymentLockBarred')
            : t('lockReason.whyNothingOverdue')}
        </Alert>
      ) : null}
      <TextField
        select
        id="lock-reason-category"
        name="reason_category"
        label={t('lockReason.category')}
        value={category}
        onChange={(event) => onCategoryChange(event.target.value as TLockReasonCategory | '')}
        required={offer.isRequired}
        error={categoryError !== null}
        helperText={categoryError ?? categoryHelp}
        fullWidth
        slotProps={{
          select: { native: true },
          inputLabel: { shrink: true },
          htmlInput: { 'data-testid': 'lock-reason-category' },
        }}
      >
        {/* With a category required, the empty choice only stands until one is chosen. */}
        {offer.isRequired ? (
          category === '' ? (
            <option value="" disabled>
              {t('lockReason.choose')}
            </option>
          ) : null
        ) : (
          <option value="">{t('lockReason.none')}</option>
        )}
        {offer.categories.map((option) => (
          <option key={option} value={option}>
            {t(`lockReason.categories.${option}`)}
          </option>
        ))}
      </TextField>
      <TextField
        id="lock-reason"
        name="reason"
        label={needsNote ? t('lockReason.note') : t('lockReason.noteOptional')}
        value={note}
        onChange={(event) => onNoteChange(event.target.value)}
        required={needsNote}
        error={noteError !== null}
        helperText={noteError ?? t('lockReason.noteHelp', bounds)}
        multiline
        minRows={2}
        fullWidth
        slotProps={{ htmlInput: { maxLength: LOCK_REASON_MAX + 20, 'data-testid': 'lock-reason' } }}
      />
    </Stack>
  );
};

/**
 * The reason of one restricting command being asked for (`name`, a command or gate intent of the
 * domain's COMMAND_RULES; null when none is): the offer commandOfferFor makes for these facts, the
 * category chosen (until one is, the one the rules imply), the note and their errors.
 * - `isAsked`: the command takes a reason (it restricts and is not refused);
 * - `field`: LockReasonPicker's props (choosing or typing clears that field's error);
 * - `check()`: the reason fields to send ({} when none is asked), or null after putting the app's
 *   errors under the fields: no category where one is required, no note for "Other", a note
 *   outside LOCK_REASON_MIN..MAX;
 * - `showServerErrors(error)`: the server's words on `reason_category` and `reason` under their
 *   fields; whether any landed;
 * - `reset()`: for a dialog opened again.
 */
export const useLockReason = (facts: TCommandFacts | null, name: string | null) => {
  const { t } = useTranslation();
  // null: nothing chosen yet, so the rules' implied category shows.
  const [chosen, setChosen] = useState<TLockReasonCategory | '' | null>(null);
  const [note, setNote] = useState('');
  const [categoryError, setCategoryError] = useState<string | null>(null);
  const [noteError, setNoteError] = useState<string | null>(null);

  const offer = facts && name ? commandOfferFor(facts, name) : null;
  const reasonOffer = offer?.kind === 'allowed' ? offer.reason : null;
  // A choice the offer no longer has (another command picked) falls back to the implied one.
  const category: TLockReasonCategory | '' =
    reasonOffer === null
      ? ''
      : chosen === '' || (chosen !== null && reasonOffer.categories.includes(chosen))
        ? chosen
        : (reasonOffer.implied ?? '');
  const why: TReasonWhy =
    reasonOffer === null || facts === null
      ? null
      : !isPaymentLockAllowed(facts.deviceType) && facts.overduePaise > 0
        ? 'paymentLockBarred'
        : reasonOffer.isRequired
          ? 'nothingOverdue'
          : null;

  const check = (): TReasonFields | null => {
    if (reasonOffer === null) return {};
    const trimmed = note.trim();
    const isCategoryMissing = category === '' && reasonOffer.isRequired;
    const needsNote = category !== '' && LOCK_REASON_RULES[category].needsNote;
    const isNoteWrong = trimmed === '' ? needsNote : !ZLockReason.safeParse(note).success;
    setCategoryError(isCategoryMissing ? t('lockReason.errors.category') : null);
    setNoteError(
      isNoteWrong ? t('lockReason.errors.note', { min: LOCK_REASON_MIN, max: LOCK_REASON_MAX }) : null,
    );
    if (isCategoryMissing || isNoteWrong) return null;
    return { ...(category ? { reason_category: category } : {}), ...(trimmed ? { reason: trimmed } : {}) };
  };

  const showServerErrors = (error: TApiError | null | undefined): boolean => {
    const categoryField = error?.fields.find((field) => field.field === 'reason_category');
    const noteField = error?.fields.find((field) => field.field === 'reason');
    if (categoryField) setCategoryError(categoryField.message);
    if (noteField) setNoteError(noteField.message);
    return Boolean(categoryField || noteField);
  };

  return {
    isAsked: reasonOffer !== null,
    field: reasonOffer
      ? {
          offer: reasonOffer,
          category,
          onCategoryChange: (next: TLockReasonCategory | '') => {
            setChosen(next);
            setCategoryError(null);
          },
          note,
          onNoteChange: (next: string) => {
            setNote(next);
            setNoteError(null);
          },
          categoryError,
          noteError,
          why,
          isShownOnPhone: name !== null && locksScreen(name),
        }
      : null,
    check,
    showServerErrors,
    reset: () => {
      setChosen(null);
      setNote('');
      setCategoryError(null);
      setNoteError(null);
    },
  };
};

/** useLockReason's state. */
export type TLockReasonState = ReturnType<typeof useLockReason>;
