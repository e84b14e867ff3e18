import Button from '@mui/material/Button';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialog (its form, the joining schema, MUI's Dialog) loads when first opened, not with the
// login screen (issue 17).
const JoinRequestDialog = lazy(() =>
  import('./join-request-dialog').then((module) => ({ default: module.JoinRequestDialog })),
);

/**
 * The login screen's "New shop? Ask to join" button and its dialog. `renderOpener` draws the
 * button (the sign-in screens' own, composed by app/), an MUI text button by default;
 * `isOpenAtStart` opens the dialog at once (the light sign-in handed the page over to ask).
 */
export const JoinRequestLink = ({
  orgId,
  renderOpener,
  isOpenAtStart = false,
}: {
  orgId: number;
  renderOpener?: (open: () => void, label: string) => ReactNode;
  isOpenAtStart?: boolean;
}) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(isOpenAtStart);
  // Mounted from the first opening on, so that closing keeps the dialog's exit transition.
  const [hasOpened, setHasOpened] = useState(isOpenAtStart);
  const open = () => {
    setHasOpened(true);
    setIsOpen(true);
  };
  return (
    <>
      {renderOpener ? (
        renderOpener(open, t('joining.link'))
      ) : (
        <Button variant="text" onClick={open} data-testid="join-open">
          {t('joining.link')}
        </Button>
      )}
      {hasOpened && (
        <Suspense fallback={null}>
          <JoinRequestDialog orgId={orgId} open={isOpen} onClose={() => setIsOpen(false)} />
        </Suspense>
      )}
    </>
  );
};
