import type { TCustomerEditAction } from '@kisht/domain/customers/customers.rules';
import { customerEditActions } from '@kisht/domain/customers/customers.rules';
import type { TCustomerDetails } from '@kisht/domain/customers/customers.schema';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { appPaths } from '../../../lib/paths';
import { CustomerEditMenu } from './customer-edit-menu';
import { EditEmiTermsDialog } from './edit-emi-terms-dialog';
import { EditImeiDialog } from './edit-imei-dialog';
import { ReEnrolDialog } from './re-enrol-dialog';

type TEditDialog = 'imei' | 'emi' | 're_enrol' | null;

type TCustomerEditActionsProps = { customer: TCustomerDetails };

/**
 * The spec §2 edit menu of customer_details with what each action does: IMEI_EDIT and EMI_EDIT
 * open their dialogs; EDIT_SIGNATURE opens signature, EDIT_DOCUMENTS customer_documents,
 * EMM_QR_CODE emm_qr (the enrolment QR of the customer's device family), CHECK_STATUS (Apple)
 * apple_sync, which asks the iPhone for its information, and RE_ENROL its dialog (a wiped,
 * replaced or lost phone taken out, then the new QR).
 */
export const CustomerEditActions = ({ customer }: TCustomerEditActionsProps) => {
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<TEditDialog>(null);
  const handleAction = (action: TCustomerEditAction) => {
    switch (action) {
      case 'IMEI_EDIT':
        setDialog('imei');
        return;
      case 'EMI_EDIT':
        setDialog('emi');
        return;
      case 'EDIT_SIGNATURE':
        navigate(appPaths.signature.href(customer.id));
        return;
      case 'EDIT_DOCUMENTS':
        navigate(appPaths.customerDocuments.href(customer.id));
        return;
      case 'EMM_QR_CODE':
        navigate(appPaths.emmQr.href(customer.id));
        return;
      case 'CHECK_STATUS':
        navigate(appPaths.appleSync.href(customer.id));
        return;
      case 'RE_ENROL':
        setDialog('re_enrol');
        return;
    }
  };
  const close = () => setDialog(null);
  return (
    <>
      <CustomerEditMenu actions={customerEditActions(customer)} onAction={handleAction} />
      <EditImeiDialog customer={customer} isOpen={dialog === 'imei'} onClose={close} />
      <EditEmiTermsDialog customer={customer} isOpen={dialog === 'emi'} onClose={close} />
      <ReEnrolDialog customer={customer} isOpen={dialog === 're_enrol'} onClose={close} />
    </>
  );
};
