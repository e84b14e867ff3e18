import Button from '@mui/material/Button';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialog (its form, the joining schema, MUI's Dialog) loads when first opened, not with the
// login screen (issue 17).
const JoinRequestDialog = lazy(() =>
  import('./join-request-dialog').then((module) => ({ default: module.JoinRequestDialog })),
);

/** The login screen's "New shop? Ask to join" button and its dialog. */
export const JoinRequestLink = ({ orgId }: { orgId: number }) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  // Mounted from the first opening on, so that closing keeps the dialog's exit transition.
  const [hasOpened, setHasOpened] = useState(false);
  const open = () => {
    setHasOpened(true);
    setIsOpen(true);
  };
  return (
    <>
      <Button variant="text" onClick={open} data-testid="join-open">
        {t('joining.link')}
      </Button>
      {hasOpened && (
        <Suspense fallback={null}>
          <JoinRequestDialog orgId={orgId} open={isOpen} onClose={() => setIsOpen(false)} />
        </Suspense>
      )}
    </>
  );
};
