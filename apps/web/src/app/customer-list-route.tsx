import { CustomerListPage } from '../features/customers/pages/customer-list-page';
import { useShopOptions } from './use-shop-options';

/**
 * customer_list composed by the app: the customers feature's list with the "Shop" choices of a
 * retailer that has mini-retailers (from the retailers feature; none for anyone else).
 */
export const CustomerListRoute = () => <CustomerListPage shopOptions={useShopOptions()} />;
