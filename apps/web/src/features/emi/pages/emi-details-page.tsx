import { zodResolver } from '@hookform/resolvers/zod';
import { CUSTOMER_STATUS_CODES, CustomerStatus } from '@kisht/domain/common/enums';
import type {
  TEmiDetails,
  TInstalmentRow,
  TPaymentReceipt,
  TRecordPaymentRequest,
} from '@kisht/domain/emi/emi.schema';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import type { ReactNode } from 'react';
import { useRef, useState } from 'react';
import type { Resolver } from 'react-hook-form';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CustomerStatusChip } from '../../../components/customer-status-chip';
import { DownloadCsvButton } from '../../../components/download-csv-button';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SavedReadNotice } from '../../../components/saved-read-notice';
import { applyServerFieldErrors, SERVER_ERROR_TYPE } from '../../../lib/form-errors';
import type { TApiError } from '../../../lib/http/base-query';
import { useSavedReadTime } from '../../../lib/http/offline-reads-slice';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../lib/paths';
import { useGoBack } from '../../../lib/use-go-back';
import { EmiPinCard } from '../components/emi-pin-card';
import { EmiReminderCard } from '../components/emi-reminder-card';
import { EmiTotals } from '../components/emi-totals';
import { InstalmentTable } from '../components/instalment-table';
import { LevyPenaltyDialog } from '../components/levy-penalty-dialog';
import { PaymentList } from '../components/payment-list';
import { ReceiptDialog } from '../components/receipt-dialog';
import { RecordPaymentCard } from '../components/record-payment-card';
import { WaiveDialog } from '../components/waive-dialog';
import { useGetEmiDetailsQuery, useLazyGetEmiScheduleCsvQuery, useRecordPaymentMutation } from '../emi-api';
import type { TInstalmentAction } from '../instalment-actions';
import type { TPaymentAttempt, TRecordPaymentValues } from '../record-payment-form';
import {
  INITIAL_RECORD_PAYMENT_VALUES,
  isPayable,
  owedOnSelection,
  paymentAttemptFor,
  paymentFormFieldOf,
  recordPaymentFormSchema,
  selectAllPayable,
  toggleInstalment,
} from '../record-payment-form';

const isApiError = (error: unknown): error is TApiError =>
  typeof error === 'object' && error !== null && 'fields' in error && 'message' in error;

const isKnownStatus = (status: number): status is (typeof CUSTOMER_STATUS_CODES)[number] =>
  CUSTOMER_STATUS_CODES.some((code) => code === status);

const Section = ({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) => (
  <Card data-testid={testId}>
    <CardContent>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </CardContent>
  </Card>
);

type TEmiDetailsViewProps = {
  details: TEmiDetails;
  isReadOnly: boolean;
  /** The schedule is the one saved for offline reading (issue 28): the EMI PIN is not kept. */
  isReadOffline: boolean;
};

/** The row action the retailer chose; kept while its dialog closes, so the dialog does not empty. */
type TChosenAction = { action: TInstalmentAction; instalment: TInstalmentRow; isOpen: boolean };

const EmiDetailsView = ({ details, isReadOnly, isReadOffline }: TEmiDetailsViewProps) => {
  const { t } = useTranslation();
  const [recordPayment, { isLoading: isSaving }] = useRecordPaymentMutation();
  const [receipt, setReceipt] = useState<TPaymentReceipt | null>(null);
  const [isReceiptOpen, setIsReceiptOpen] = useState(false);
  const [chosenAction, setChosenAction] = useState<TChosenAction | null>(null);
  /** The payment attempt not yet answered with a receipt: sending it again keeps its Idempotency-Key. */
  const unfinishedAttempt = useRef<TPaymentAttempt | null>(null);
  const { instalments } = details;
  const canRecordPayment = !isReadOnly && instalments.some(isPayable);
  // The schema knows what the instalments owe now (they are fetched again after each payment).
  const formSchema = useRef(recordPaymentFormSchema(instalments, details.customerId));
  formSchema.current = recordPaymentFormSchema(instalments, details.customerId);
  const resolver = useRef<Resolver<TRecordPaymentValues, unknown, TRecordPaymentRequest>>(
    (values, context, options) =>
      zodResolver<TRecordPaymentValues, unknown, TRecordPaymentRequest>(formSchema.current)(
        values,
        context,
        options,
      ),
  ).current;
  const form = useForm<TRecordPaymentValues, unknown, TRecordPaymentRequest>({
    resolver,
    defaultValues: INITIAL_RECORD_PAYMENT_VALUES,
  });
  const emiIds = useWatch({ control: form.control, name: 'emiIds' });

  /** A new selection and its prefilled amount; checked again once the form has been submitted. */
  const changeSelection = (next: TRecordPaymentValues) => {
    for (const name of ['emiIds', 'amount'] as const) {
      if (form.getFieldState(name).error?.type === SERVER_ERROR_TYPE) form.clearErrors(name);
    }
    form.setValue('emiIds', next.emiIds);
    form.setValue('amount', next.amount);
    if (form.formState.isSubmitted) void form.trigger(['emiIds', 'amount']);
  };

  const handleSubmit = form.handleSubmit(async (request) => {
    const attempt = paymentAttemptFor(unfinishedAttempt.current, request);
    unfinishedAttempt.current = attempt;
    const result = await recordPayment(attempt);
    if (result.error) {
      // The message has been toasted; field errors go under their fields.
      if (isApiError(result.error)) applyServerFieldErrors(result.error, form.setError, paymentFormFieldOf);
      return;
    }
    unfinishedAttempt.current = null;
    form.reset(INITIAL_RECORD_PAYMENT_VALUES);
    setReceipt(result.data);
    setIsReceiptOpen(true);
    enqueueSnackbar(
      result.data.customerStatus === CustomerStatus.EMI_COMPLETED
        ? t('emi.loanCompleted')
        : t('emi.pay.recorded', { receiptNo: result.data.receiptNo }),
      { variant: 'success' },
    );
  });

  const isLoanCompleted =
    details.customerStatus === CustomerStatus.EMI_COMPLETED ||
    (instalments.length > 0 && details.totals.outstandingPaise === 0);
  const closeAction = () => setChosenAction((current) => (current ? { ...current, isOpen: false } : null));
  const waiveKind = chosenAction?.action === 'waivePenalty' ? 'penalty_waived' : 'waived';

  return (
    <Stack spacing={2}>
      <Card>
        <CardContent>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Typography variant="h6" component="h2" noWrap sx={{ flex: 1 }} data-testid="emi-customer-name">
              {details.customerName}
            </Typography>
            {isKnownStatus(details.customerStatus) ? (
              <CustomerStatusChip status={details.customerStatus} />
            ) : null}
          </Stack>
        </CardContent>
      </Card>
      {isLoanCompleted ? (
        <Alert severity="success" data-testid="emi-loan-completed">
          {t('emi.loanCompleted')}
        </Alert>
      ) : null}
      <EmiTotals totals={details.totals} />
      <Section title={t('emi.schedule.title')} testId="emi-schedule-card">
        <InstalmentTable
          instalments={instalments}
          selection={
            canRecordPayment
              ? {
                  selectedIds: emiIds,
                  onToggle: (emiId) =>
                    changeSelection(toggleInstalment(form.getValues(), instalments, emiId)),
                  onToggleAll: (isSelected) =>
                    changeSelection(selectAllPayable(form.getValues(), instalments, isSelected)),
                  isDisabled: isSaving,
                }
              : undefined
          }
          actions={
            isReadOnly
              ? undefined
              : {
                  onAction: (action, instalment) => setChosenAction({ action, instalment, isOpen: true }),
                  isDisabled: isSaving,
                }
          }
        />
      </Section>
      {canRecordPayment ? (
        <RecordPaymentCard
          form={form}
          owedPaise={owedOnSelection(instalments, emiIds)}
          onSubmit={(event) => void handleSubmit(event)}
          isSaving={isSaving}
        />
      ) : null}
      {isReadOnly ? null : <EmiPinCard customerId={details.customerId} isOffline={isReadOffline} />}
      {isReadOnly || isLoanCompleted ? null : <EmiReminderCard customerId={details.customerId} />}
      <Section title={t('emi.payments.title')} testId="emi-payments-card">
        <PaymentList payments={details.payments} />
      </Section>
      <ReceiptDialog isOpen={isReceiptOpen} receipt={receipt} onClose={() => setIsReceiptOpen(false)} />
      {/* Mounted from the first row action on, so typing in the payment form does not render them. */}
      {chosenAction ? (
        <>
          <LevyPenaltyDialog
            isOpen={chosenAction.action === 'levyPenalty' && chosenAction.isOpen}
            customerId={details.customerId}
            instalment={chosenAction.action === 'levyPenalty' ? chosenAction.instalment : null}
            onClose={closeAction}
          />
          <WaiveDialog
            isOpen={chosenAction.action !== 'levyPenalty' && chosenAction.isOpen}
            customerId={details.customerId}
            target={
              chosenAction.action === 'levyPenalty'
                ? null
                : { instalment: chosenAction.instalment, kind: waiveKind }
            }
            onClose={closeAction}
          />
        </>
      ) : null}
    </Stack>
  );
};

/**
 * Spec §2 emi_details?customer_id= (and view_emi_details, `isReadOnly`): a customer's loan totals,
 * instalment schedule (penalties and waivers included) and payments, with a CSV download of the
 * schedule. On emi_details the retailer ticks unpaid instalments and records a payment against
 * them (a receipt follows), levies a due penalty or waives an instalment or its penalty from a
 * row's actions menu, sends an EMI reminder to the customer's phone, and sees, copies or renews
 * the customer's EMI PIN. Offline, the schedule is the one last fetched, under a notice saying as
 * of when (issue 28); a payment tried then is refused by the base query, never kept to send later.
 */
export const EmiDetailsPage = ({ isReadOnly = false }: { isReadOnly?: boolean }) => {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const customerId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM)) ?? 0;
  const goBack = useGoBack(
    customerId ? appPaths.customerDetails.href(customerId) : appPaths.customerList.href(),
  );
  const details = useGetEmiDetailsQuery(customerId, { skip: !customerId, refetchOnMountOrArgChange: true });
  const [fetchScheduleCsv] = useLazyGetEmiScheduleCsvQuery();
  const savedAt = useSavedReadTime(details);

  const renderBody = () => {
    if (!customerId) return <LoadError message={t('errors.customerNotFound')} />;
    if (details.isLoading) return <PageSkeleton />;
    if (!details.data) return <LoadError message={details.error?.message} onRetry={details.refetch} />;
    return (
      <>
        {savedAt === null ? null : <SavedReadNotice savedAt={savedAt} onRetry={details.refetch} />}
        <EmiDetailsView details={details.data} isReadOnly={isReadOnly} isReadOffline={savedAt !== null} />
      </>
    );
  };

  return (
    <>
      <PageHeader
        title={t(isReadOnly ? 'pages.view_emi_details' : 'pages.emi_details')}
        onBack={goBack}
        action={
          customerId ? (
            <DownloadCsvButton
              fileName={`emi-schedule-${customerId}.csv`}
              fetchCsv={() => fetchScheduleCsv(customerId).unwrap()}
              testId="emi-download-csv"
            />
          ) : undefined
        }
      />
      {renderBody()}
    </>
  );
};
