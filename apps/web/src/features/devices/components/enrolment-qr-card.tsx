import type { TEnrolmentQr } from '@kisht/domain/customers/customers.schema';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { QRCodeCanvas, QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';

/** Largest on-screen QR size, CSS px: fits a 320 px-wide phone with page padding. */
const QR_SIZE = 296;

/**
 * The on-screen size for a QR of `cells` modules (quiet zone included): a whole number of CSS
 * pixels per module, so every module paints sharp (a long payload at a fractional size blurs, and
 * a decoder reading the screen may miss it); QR_SIZE until the QR's cell count is known.
 */
const crispQrSize = (cells: number | null): number =>
  cells ? Math.max(1, Math.floor(QR_SIZE / cells)) * cells : QR_SIZE;
/** The downloaded PNG is drawn larger so each module is several whole pixels and prints sharply. */
const QR_DOWNLOAD_SIZE = 1024;
/** The quiet zone the QR specification requires, in modules (what includeMargin used to add). */
const QR_MARGIN_MODULES = 4;

type TEnrolmentQrCardProps = {
  customerId: number;
  customerName: string;
  qr: TEnrolmentQr;
  isRefreshing: boolean;
  onRegenerate: () => void;
};

/** True once `expiresAt` has passed; flips by itself at that moment. */
const useIsExpired = (expiresAt: string): boolean => {
  const expiresAtMs = Date.parse(expiresAt);
  const [isExpired, setIsExpired] = useState(() => expiresAtMs <= Date.now());
  useEffect(() => {
    const remaining = expiresAtMs - Date.now();
    setIsExpired(remaining <= 0);
    if (remaining <= 0) return;
    // setTimeout's delay is a 32-bit integer; a token valid for longer just never flips here.
    const timer = window.setTimeout(() => setIsExpired(true), Math.min(remaining, 2 ** 31 - 1));
    return () => window.clearTimeout(timer);
  }, [expiresAtMs]);
  return isExpired;
};

/** Kinds whose payload is a URL the phone opens (the link-based app's deep link, the Apple profile). */
const URL_KINDS: readonly TEnrolmentQr['kind'][] = ['link', 'apple_profile'];

/**
 * The link-based app's enrolment code, large enough to read out and type on the customer's phone:
 * as the server writes it (`XXXX-XXXX`), or in groups of four when it comes without a separator;
 * a screen reader reads its characters one by one.
 */
const EnrolmentCode = ({ code }: { code: string }) => {
  const { t } = useTranslation();
  const hasSeparator = /[^0-9A-Za-z]/.test(code);
  const shown = hasSeparator ? code : (code.match(/.{1,4}/g)?.join(' ') ?? code);
  const spoken = code
    .replace(/[^0-9A-Za-z]/g, '')
    .split('')
    .join(' ');
  return (
    <Stack spacing={0.5} sx={{ width: '100%', alignItems: 'center', textAlign: 'center' }}>
      <Typography variant="caption" color="textSecondary">
        {t('enrolment.codeLabel')}
      </Typography>
      <Typography
        component="p"
        data-testid="enrolment-code"
        aria-label={spoken}
        sx={{
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: { xs: 32, sm: 40 },
          fontWeight: 700,
          letterSpacing: '0.12em',
          lineHeight: 1.2,
          wordBreak: 'break-all',
        }}
      >
        {shown}
      </Typography>
      <Typography variant="body2" color="textSecondary">
        {t('enrolment.codeHelp')}
      </Typography>
    </Stack>
  );
};

/**
 * The enrolment QR of customer_navigate and emm_qr (design §5; issue 15): the payload of its kind
 * (provisioning JSON, deep link or Apple profile URL) as a QR code, with copy, PNG download,
 * expiry and the payload text; a link or profile URL can also be opened on this phone, and the
 * APK download and the enrolment code show when the server gives them.
 */
export const EnrolmentQrCard = ({
  customerId,
  customerName,
  qr,
  isRefreshing,
  onRegenerate,
}: TEnrolmentQrCardProps) => {
  const { t } = useTranslation();
  const downloadCanvasRef = useRef<HTMLCanvasElement>(null);
  const payloadRef = useRef<HTMLTextAreaElement>(null);
  /** The QR's modules per side with its quiet zone, read from the drawn SVG's viewBox. */
  const [qrCells, setQrCells] = useState<number | null>(null);
  const measureQr = (svg: SVGSVGElement | null) => {
    const cells = svg?.viewBox?.baseVal?.width;
    if (cells) setQrCells(cells);
  };
  const isExpired = useIsExpired(qr.expiresAt);

  const copyWithSelection = (): boolean => {
    const field = payloadRef.current;
    if (!field) return false;
    field.focus();
    field.select();
    return document.execCommand('copy');
  };

  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(qr.payload);
      enqueueSnackbar(t('enrolment.copied'), { variant: 'success' });
    } catch {
      // No clipboard API outside a secure context (plain http on a LAN address): select and copy.
      const isCopied = copyWithSelection();
      enqueueSnackbar(isCopied ? t('enrolment.copied') : t('enrolment.copyFailed'), {
        variant: isCopied ? 'success' : 'error',
      });
    }
  };

  const handleDownload = () => {
    const canvas = downloadCanvasRef.current;
    if (!canvas) return;
    const link = document.createElement('a');
    link.href = canvas.toDataURL('image/png');
    link.download = `kisht-enrolment-${customerId}.png`;
    link.click();
  };

  const qrTitle = t('enrolment.qrTitle', { name: customerName });
  const isUrl = URL_KINDS.includes(qr.kind);

  return (
    <Card>
      <CardContent>
        <Stack spacing={2} sx={{ alignItems: 'center' }}>
          <Box
            sx={{
              p: 1,
              bgcolor: '#ffffff',
              borderRadius: 2,
              border: 1,
              borderColor: 'divider',
              lineHeight: 0,
              opacity: isExpired ? 0.3 : 1,
            }}
          >
            {/* SVG at a whole number of pixels per module (crispQrSize): a canvas of a fixed size
                paints a long payload's modules at a fraction of a pixel each, blurred, which a
                camera or decoder reading the screen may fail on. */}
            <QRCodeSVG
              ref={measureQr}
              value={qr.payload}
              size={crispQrSize(qrCells)}
              level="M"
              marginSize={QR_MARGIN_MODULES}
              title={qrTitle}
              role="img"
              aria-label={qrTitle}
              data-testid="enrolment-qr"
            />
          </Box>
          <Box sx={{ display: 'none' }} aria-hidden="true">
            <QRCodeCanvas
              ref={downloadCanvasRef}
              value={qr.payload}
              size={QR_DOWNLOAD_SIZE}
              level="M"
              marginSize={QR_MARGIN_MODULES}
            />
          </Box>
          {isExpired ? (
            <Alert
              severity="warning"
              sx={{ width: '100%' }}
              action={
                <Button color="inherit" size="small" onClick={onRegenerate} loading={isRefreshing}>
                  {t('enrolment.regenerate')}
                </Button>
              }
            >
              {t('enrolment.expired')}
            </Alert>
          ) : (
            <Typography variant="body2" color="textSecondary" data-testid="enrolment-expiry">
              {t('enrolment.expiresAt', { time: formatDateTime(qr.expiresAt) })}
            </Typography>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ width: '100%' }}>
            <Button
              variant="contained"
              startIcon={<ContentCopyIcon />}
              onClick={handleCopy}
              fullWidth
              data-testid="copy-payload"
            >
              {isUrl ? t('enrolment.copyLink') : t('enrolment.copyPayload')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={handleDownload}
              fullWidth
              data-testid="download-qr"
            >
              {t('enrolment.downloadQr')}
            </Button>
          </Stack>
          {isUrl ? (
            <Button
              variant="outlined"
              href={qr.payload}
              target="_blank"
              rel="noopener noreferrer"
              startIcon={<OpenInNewIcon />}
              fullWidth
              data-testid="open-enrolment-link"
            >
              {t('enrolment.openLink')}
            </Button>
          ) : null}
          {qr.apkUrl ? (
            <Typography variant="body2" sx={{ width: '100%', overflowWrap: 'anywhere' }}>
              {t('enrolment.apkLabel')}{' '}
              <Link
                href={qr.apkUrl}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="enrolment-apk-link"
              >
                {qr.apkUrl}
              </Link>
            </Typography>
          ) : null}
          {qr.enrolmentCode ? <EnrolmentCode code={qr.enrolmentCode} /> : null}
          <TextField
            label={t(`enrolment.payloadLabels.${qr.kind}`)}
            value={qr.payload}
            multiline
            minRows={3}
            maxRows={8}
            inputRef={payloadRef}
            slotProps={{
              input: { readOnly: true },
              htmlInput: {
                'data-testid': 'enrolment-payload',
                spellCheck: false,
                style: {
                  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                  fontSize: 12,
                },
              },
            }}
          />
        </Stack>
      </CardContent>
    </Card>
  );
};
