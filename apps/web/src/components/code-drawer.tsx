import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { enqueueSnackbar } from 'notistack';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Puts text on the clipboard: the Clipboard API where the page may use it, else (an http page in
 * the mobile shell's web view, an older browser) a selected hidden textarea and the copy command.
 * Rejects when neither copies.
 */
const copyText = async (text: string): Promise<void> => {
  try {
    if (navigator.clipboard?.writeText) return await navigator.clipboard.writeText(text);
  } catch {
    // Refused (no permission, not a secure context): try the copy command below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('The copy command copied nothing');
  } finally {
    area.remove();
  }
};

/** Spec §2: the code drawer is 200 px tall. */
export const CODE_DRAWER_HEIGHT = 200;

type TCodeDrawerProps = {
  isOpen: boolean;
  /** The code to show and copy (family care, anti-hacking); empty or missing shows 'N/A'. */
  code: string | null | undefined;
  /** Heading above the code; 'Code' by default. */
  title?: string;
  onClose: () => void;
};

/**
 * Spec §2 code drawer (family care / anti-hacking): a bottom drawer, 200 px tall, showing the code
 * or 'N/A', with Cancel and Copy. Copy puts the code on the clipboard, turns into 'Copied' and
 * toasts 'Code Copied Successfully.'; with no code it toasts the error 'Code not found' (spec §5:
 * copying requires a code).
 */
export const CodeDrawer = ({ isOpen, code, title, onClose }: TCodeDrawerProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  // The code last copied: the button says 'Copied' only for that code, until the drawer closes.
  const [copiedCode, setCopiedCode] = useState<string | null>(null);
  const trimmed = code?.trim() ?? '';
  const hasCode = trimmed !== '';
  const isCopied = hasCode && copiedCode === trimmed;

  const handleClose = () => {
    setCopiedCode(null);
    onClose();
  };

  const handleCopy = async () => {
    if (!hasCode) {
      enqueueSnackbar(t('codeDrawer.notFound'), { variant: 'error' });
      return;
    }
    try {
      await copyText(trimmed);
      setCopiedCode(trimmed);
      enqueueSnackbar(t('codeDrawer.copySuccess'), { variant: 'success' });
    } catch {
      enqueueSnackbar(t('codeDrawer.copyFailed'), { variant: 'error' });
    }
  };

  return (
    <Drawer
      anchor="bottom"
      open={isOpen}
      onClose={handleClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-labelledby': titleId,
          'data-testid': 'code-drawer',
          sx: { height: CODE_DRAWER_HEIGHT, borderTopLeftRadius: 16, borderTopRightRadius: 16 },
        } as object,
      }}
    >
      <Stack sx={{ height: '100%', px: 3, py: 2, maxWidth: 600, width: '100%', mx: 'auto' }}>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title ?? t('codeDrawer.title')}
        </Typography>
        <Box sx={{ flex: 1, display: 'grid', placeItems: 'center' }}>
          <Typography
            component="p"
            variant="h4"
            data-testid="code-drawer-code"
            sx={{
              fontFamily: 'monospace',
              letterSpacing: '0.1em',
              wordBreak: 'break-all',
              textAlign: 'center',
            }}
          >
            {hasCode ? trimmed : t('common.notAvailable')}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1.5}>
          <Button fullWidth variant="outlined" onClick={handleClose} data-testid="code-drawer-cancel">
            {t('common.cancel')}
          </Button>
          <Button fullWidth variant="contained" onClick={handleCopy} data-testid="code-drawer-copy">
            {isCopied ? t('codeDrawer.copied') : t('codeDrawer.copy')}
          </Button>
        </Stack>
      </Stack>
    </Drawer>
  );
};
