import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JoinRequestDialog } from './join-request-dialog';

/** The login screen's "New shop? Ask to join" button and its dialog. */
export const JoinRequestLink = ({ orgId }: { orgId: number }) => {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button variant="text" onClick={() => setIsOpen(true)} data-testid="join-open">
        {t('joining.link')}
      </Button>
      <JoinRequestDialog orgId={orgId} open={isOpen} onClose={() => setIsOpen(false)} />
    </>
  );
};
