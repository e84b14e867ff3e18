import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import type { FormEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { FormProvider, get, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { SERVER_ERROR_TYPE } from '../../../lib/form-errors';
import { isApiError } from '../../../lib/http/base-query';
import { productsApi } from '../../../lib/http/products-api';
import { appPaths, CUSTOMER_ID_PARAM, parseCustomerId } from '../../../lib/paths';
import { useGoBack } from '../../../lib/use-go-back';
import type { TAddCustomerPath, TAddCustomerPayload, TAddCustomerValues } from '../add-customer-form';
import {
  ADD_CUSTOMER_STEPS,
  ALL_ADD_CUSTOMER_STEPS,
  ATTACHMENTS_STEP,
  addCustomerResolver,
  CONSENT_STEP,
  createInitialValues,
  firstFieldWithError,
  STEP_FIELDS,
  serverFieldErrors,
  stepOfField,
  suggestedLoanPaise,
} from '../add-customer-form';
import { AddCustomerPlanStep } from '../components/add-customer-plan-step';
import { AddCustomerStepper } from '../components/add-customer-stepper';
import {
  AttachmentsStep,
  DeviceStep,
  LoanStep,
  PersonalStep,
  ProductStep,
} from '../components/add-customer-steps';
import { AddressStep } from '../components/address-step';
import { ConsentDetails, ConsentRecordedNote } from '../components/consent-details';
import { ConsentForm } from '../components/consent-form';
import {
  customersApi,
  useCreateCustomerMutation,
  useGetCustomerConsentQuery,
  useGetLoanDefaultsQuery,
} from '../customers-api';

const STEP_CONTENT = {
  personal: PersonalStep,
  address: AddressStep,
  device: DeviceStep,
  product: ProductStep,
  loan: LoanStep,
} as const;

/**
 * Keeps the loan amount at price − down payment while it has not been typed by hand (the field is
 * not dirty); the price itself is prefilled from the chosen product.
 */
const useLoanAmountPrefill = (form: UseFormReturn<TAddCustomerValues, unknown, TAddCustomerPayload>) => {
  const { control, getFieldState, setValue } = form;
  const [pricePaise, downPaymentPaise] = useWatch({ control, name: ['pricePaise', 'downPaymentPaise'] });
  useEffect(() => {
    const loan = getFieldState('loanAmountPaise');
    if (loan.isDirty) return;
    setValue('loanAmountPaise', suggestedLoanPaise(pricePaise, downPaymentPaise), {
      shouldValidate: Boolean(loan.error),
    });
  }, [pricePaise, downPaymentPaise, getFieldState, setValue]);
};

/**
 * Starts the interest at the organisation's rate (loan_defaults) once it has loaded, unless the
 * person has already typed one (the field is dirty).
 */
const useInterestRateDefault = (form: UseFormReturn<TAddCustomerValues, unknown, TAddCustomerPayload>) => {
  const defaults = useGetLoanDefaultsQuery();
  const rateBps = defaults.data?.annualRateBps;
  const { getFieldState, setValue } = form;
  useEffect(() => {
    if (rateBps === undefined || getFieldState('annualRateBps').isDirty) return;
    setValue('annualRateBps', rateBps);
  }, [rateBps, getFieldState, setValue]);
};

/**
 * The guided form (react-hook-form, validated by the domain schema alone): Personal → Address →
 * Device → Product & financer → Loan, with the live EMI preview on the loan step. Next checks only
 * the current step's fields; Back keeps every value; the last step saves. The server's field
 * errors go under their fields, and the form jumps to the first step with one. Once saved, the
 * page moves on to the attachments step of the new customer.
 */
const AddCustomerForm = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack(appPaths.customerList.href());
  const [createCustomer, { isLoading: isSaving }] = useCreateCustomerMutation();
  const form = useForm<TAddCustomerValues, unknown, TAddCustomerPayload>({
    resolver: addCustomerResolver,
    defaultValues: createInitialValues(),
    // A field checks itself once left, and then as it changes; Next checks the whole step.
    mode: 'onTouched',
  });
  const [activeStep, setActiveStep] = useState(0);
  const [fieldToFocus, setFieldToFocus] = useState<TAddCustomerPath | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusedStepRef = useRef(0);
  useLoanAmountPrefill(form);
  useInterestRateDefault(form);
  const prefetchProducts = productsApi.usePrefetch('listProducts');
  const prefetchFinancers = customersApi.usePrefetch('listFinancers');

  // The catalogue loads while the customer's details are typed, so the product step is ready.
  useEffect(() => {
    prefetchProducts();
    prefetchFinancers();
  }, [prefetchProducts, prefetchFinancers]);

  const step = ADD_CUSTOMER_STEPS[activeStep] ?? 'personal';
  const StepContent = STEP_CONTENT[step];
  const isLastStep = activeStep === ADD_CUSTOMER_STEPS.length - 1;

  // A new step takes the focus to its heading (so a screen reader says where the person is), or
  // to the field a server error is on.
  useEffect(() => {
    const isNewStep = activeStep !== focusedStepRef.current;
    focusedStepRef.current = activeStep;
    if (fieldToFocus) {
      form.setFocus(fieldToFocus);
      setFieldToFocus(null);
    } else if (isNewStep) {
      headingRef.current?.focus();
    }
  }, [activeStep, fieldToFocus, form]);

  const goToStep = (index: number) => setActiveStep(index);

  /** Shows the step a field is on and puts the focus in it. */
  const showField = (path: TAddCustomerPath) => {
    goToStep(stepOfField(path));
    setFieldToFocus(path);
  };

  const handleNext = async () => {
    const isStepValid = await form.trigger([...STEP_FIELDS[step]], { shouldFocus: true });
    if (isStepValid) goToStep(activeStep + 1);
  };

  const save = form.handleSubmit(
    async (payload) => {
      const result = await createCustomer(payload);
      if (result.error) {
        // The store has already shown the server's message in a toast.
        const errors = isApiError(result.error) ? serverFieldErrors(result.error.fields) : [];
        for (const { path, message } of errors) form.setError(path, { type: SERVER_ERROR_TYPE, message });
        const first = firstFieldWithError((path) => errors.some((error) => error.path === path));
        if (first) showField(first);
        return;
      }
      const customer = result.data;
      enqueueSnackbar(t('addCustomer.created', { name: `${customer.firstName} ${customer.lastName}` }), {
        variant: 'success',
      });
      // Replaced, so Back from the attachments step does not reopen a form already saved.
      navigate(appPaths.addCustomer.href(customer.id), { replace: true });
    },
    (errors) => {
      enqueueSnackbar(t('addCustomer.fixErrors'), { variant: 'error' });
      const first = firstFieldWithError((path) => Boolean(get(errors, path)));
      if (first) showField(first);
    },
  );

  // Enter in a field moves on like Next; on the last step it saves.
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (isLastStep) {
      void save(event);
      return;
    }
    event.preventDefault();
    void handleNext();
  };

  return (
    <>
      <PageHeader title={t('addCustomer.title')} onBack={goBack} />
      <FormProvider {...form}>
        <Stack
          component="form"
          spacing={2}
          noValidate
          onSubmit={handleSubmit}
          data-testid="add-customer-form"
        >
          <AddCustomerStepper activeStep={activeStep} onStepClick={goToStep} />
          <Card>
            <CardContent>
              <Typography
                ref={headingRef}
                tabIndex={-1}
                variant="subtitle1"
                component="h2"
                sx={{ fontWeight: 600, mb: 2, outline: 'none' }}
                data-testid="add-customer-step-title"
              >
                {t(`addCustomer.steps.${step}`)}
              </Typography>
              <StepContent />
            </CardContent>
          </Card>
          <Stack direction="row" spacing={1.5}>
            <Button
              key="back"
              variant="outlined"
              size="large"
              disabled={activeStep === 0 || isSaving}
              onClick={() => goToStep(activeStep - 1)}
              data-testid="add-customer-back"
              sx={{ flex: 1 }}
            >
              {t('common.back')}
            </Button>
            {isLastStep ? (
              <Button
                key="submit"
                type="submit"
                variant="contained"
                size="large"
                loading={isSaving}
                data-testid="add-customer-submit"
                sx={{ flex: 2 }}
              >
                {t('addCustomer.submit')}
              </Button>
            ) : (
              <Button
                key="next"
                type="submit"
                variant="contained"
                size="large"
                data-testid="add-customer-next"
                sx={{ flex: 2 }}
              >
                {t('addCustomer.next')}
              </Button>
            )}
          </Stack>
        </Stack>
      </FormProvider>
    </>
  );
};

/**
 * Step 7: the customer's consent to remote locking, which the enrolment QR needs. Recorded here
 * (ConsentForm) unless it already is; then on to the enrolment QR.
 */
const ConsentStep = ({ customerId, onContinue }: { customerId: number; onContinue: () => void }) => {
  const { t } = useTranslation();
  const consent = useGetCustomerConsentQuery(customerId);
  if (consent.isLoading) return <PageSkeleton />;
  if (consent.data === undefined)
    return <LoadError message={consent.error?.message} onRetry={consent.refetch} />;
  if (consent.data === null) return <ConsentForm customerId={customerId} />;
  return (
    <Stack spacing={2}>
      <SectionCard title={t('consent.title')} testId="add-customer-consent-recorded">
        <Stack spacing={1.5}>
          <ConsentRecordedNote consent={consent.data} />
          <ConsentDetails consent={consent.data} />
        </Stack>
      </SectionCard>
      <Button
        variant="contained"
        size="large"
        onClick={onContinue}
        fullWidth
        data-testid="add-customer-consent-continue"
      >
        {t('addCustomer.continueToEnrolment')}
      </Button>
    </Stack>
  );
};

/**
 * Steps 6 and 7 of add_customer?customer_id=: the customer is saved; their photo, invoice,
 * documents and signature can be added now (or later), a protection plan sold with the phone
 * (optional, issue 14), then their consent to remote locking is
 * recorded, and Continue opens customer_navigate, the enrolment QR (a new customer is inactive).
 */
const AddCustomerFinish = ({ customerId }: { customerId: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useGoBack(appPaths.customerList.href());
  const [step, setStep] = useState<typeof ATTACHMENTS_STEP | typeof CONSENT_STEP>(ATTACHMENTS_STEP);
  const finish = () => navigate(appPaths.customerNavigate.href(customerId), { replace: true });
  const showConsent = () => {
    setStep(CONSENT_STEP);
    window.scrollTo({ top: 0 });
  };
  return (
    <>
      <PageHeader title={t('addCustomer.title')} onBack={goBack} />
      <Stack spacing={2} data-testid="add-customer-finish">
        <AddCustomerStepper activeStep={ALL_ADD_CUSTOMER_STEPS.indexOf(step)} />
        <Typography
          variant="subtitle1"
          component="h2"
          sx={{ fontWeight: 600 }}
          data-testid="add-customer-step-title"
        >
          {t(`addCustomer.steps.${step}`)}
        </Typography>
        {step === ATTACHMENTS_STEP ? (
          <>
            <AttachmentsStep customerId={customerId} />
            <AddCustomerPlanStep customerId={customerId} />
            <Button
              variant="contained"
              size="large"
              onClick={showConsent}
              fullWidth
              data-testid="add-customer-finish-continue"
            >
              {t('addCustomer.continueToConsent')}
            </Button>
          </>
        ) : (
          <>
            <ConsentStep customerId={customerId} onContinue={finish} />
            <Button
              variant="outlined"
              onClick={() => setStep(ATTACHMENTS_STEP)}
              data-testid="add-customer-consent-back"
            >
              {t('common.back')}
            </Button>
          </>
        )}
      </Stack>
    </>
  );
};

/**
 * Spec §2 add_customer: the guided form, then (add_customer?customer_id= of the customer just
 * created) photo, documents and signature, and the consent to remote locking, before the
 * enrolment QR.
 */
export const AddCustomerPage = () => {
  const [searchParams] = useSearchParams();
  const createdId = parseCustomerId(searchParams.get(CUSTOMER_ID_PARAM));
  return createdId ? <AddCustomerFinish customerId={createdId} /> : <AddCustomerForm />;
};
