import type { TEnrolmentKind } from '@kisht/domain/devices/device-families';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PaymentLockRuleNotice } from './payment-lock-rule-notice';

/**
 * The steps of each enrolment kind (issue 15), as translation keys:
 * - android_provisioning: Android's QR provisioning of a device owner (factory reset, six taps on
 *   the welcome screen, scan; Wi-Fi only when the QR does not carry it);
 * - link: the link-based app from its deep link or APK, or the enrolment code typed in;
 * - managed_android: the Android Management API's QR, provisioned the same way;
 * - apple_profile: the MDM enrolment profile opened in Safari and installed from Settings.
 */
const STEPS = {
  android_provisioning: [
    'enrolment.kinds.android_provisioning.step1',
    'enrolment.kinds.android_provisioning.step2',
    'enrolment.kinds.android_provisioning.step3',
    'enrolment.kinds.android_provisioning.step4',
  ],
  link: [
    'enrolment.kinds.link.step1',
    'enrolment.kinds.link.step2',
    'enrolment.kinds.link.step3',
    'enrolment.kinds.link.step4',
  ],
  managed_android: [
    'enrolment.kinds.managed_android.step1',
    'enrolment.kinds.managed_android.step2',
    'enrolment.kinds.managed_android.step3',
    'enrolment.kinds.managed_android.step4',
  ],
  apple_profile: [
    'enrolment.kinds.apple_profile.step1',
    'enrolment.kinds.apple_profile.step2',
    'enrolment.kinds.apple_profile.step3',
    'enrolment.kinds.apple_profile.step4',
  ],
} as const satisfies Record<TEnrolmentKind, readonly string[]>;

/** Kinds whose payload the reference device agent (apps/device-agent) takes, for a test without a phone. */
const AGENT_KINDS: readonly TEnrolmentKind[] = ['android_provisioning', 'link'];

/**
 * How to enrol a phone of enrolment kind `kind` with customer_navigate's or emm_qr's QR: the steps
 * of that family, and its notice (Google's rule for managed Android; supervision for an iPhone).
 */
export const EnrolmentInstructions = ({ kind }: { kind: TEnrolmentKind }) => {
  const { t } = useTranslation();
  return (
    <Card data-testid="enrolment-instructions" data-kind={kind}>
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t(`enrolment.kinds.${kind}.title`)}
          </Typography>
          <Stack component="ol" spacing={1} sx={{ m: 0, pl: 2.5 }}>
            {STEPS[kind].map((step) => (
              <Typography key={step} component="li" variant="body2">
                {t(step)}
              </Typography>
            ))}
          </Stack>
          {kind === 'managed_android' ? <PaymentLockRuleNotice /> : null}
          {kind === 'apple_profile' ? (
            <Alert severity="info" data-testid="apple-supervision-note">
              {t('enrolment.kinds.apple_profile.supervision')}
            </Alert>
          ) : null}
          {AGENT_KINDS.includes(kind) ? (
            <Typography variant="caption" color="textSecondary">
              {t('enrolment.agentHint')}
            </Typography>
          ) : null}
        </Stack>
      </CardContent>
    </Card>
  );
};
