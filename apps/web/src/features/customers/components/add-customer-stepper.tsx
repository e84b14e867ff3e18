import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import type { Theme } from '@mui/material/styles';
import { visuallyHidden } from '@mui/utils';
import { useTranslation } from 'react-i18next';
import { ALL_ADD_CUSTOMER_STEPS } from '../add-customer-form';

type TAddCustomerStepperProps = {
  activeStep: number;
  /** Goes back to a completed step; absent once the customer is saved (nothing to go back to). */
  onStepClick?: ((index: number) => void) | undefined;
};

/**
 * On a phone's width the seven labels run into each other (issue 28): there only the step on
 * screen shows its label; the others keep theirs for screen readers, under their numbers.
 */
const labelOnPhonesOnlyIfActive = (isActive: boolean) => (theme: Theme) =>
  isActive ? {} : { [theme.breakpoints.down('sm')]: { '& .MuiStepLabel-labelContainer': visuallyHidden } };

/** The steps of add_customer: the five of the form, then photo, documents and signature. */
export const AddCustomerStepper = ({ activeStep, onStepClick }: TAddCustomerStepperProps) => {
  const { t } = useTranslation();
  return (
    <Stepper
      activeStep={activeStep}
      alternativeLabel
      aria-label={t('addCustomer.stepsLabel')}
      data-testid="add-customer-stepper"
    >
      {ALL_ADD_CUSTOMER_STEPS.map((key, index) => (
        <Step key={key} completed={index < activeStep} data-testid={`add-customer-step-${key}`}>
          {index < activeStep && onStepClick ? (
            <StepButton onClick={() => onStepClick(index)} sx={labelOnPhonesOnlyIfActive(false)}>
              {t(`addCustomer.steps.${key}`)}
            </StepButton>
          ) : (
            <StepLabel sx={labelOnPhonesOnlyIfActive(index === activeStep)}>
              {t(`addCustomer.steps.${key}`)}
            </StepLabel>
          )}
        </Step>
      ))}
    </Stepper>
  );
};
