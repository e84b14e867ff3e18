/**
 * Cache tags more than one feature provides or invalidates (customers and devices; the protection
 * plans): a customer's details and the customer lists, a phone's command history, the lists of
 * waiting commands, the key balances, the plans and the plans sold. Tags
 * of one feature alone stay in its `<feature>-api.ts`.
 */

/** Tag of every customer list (each filter), invalidated when a row may have changed. */
export const CUSTOMER_LIST_TAG = { type: 'Customer', id: 'LIST' } as const;
/** One customer's details (customer_details); a command changes its device summary. */
export const customerTag = (customerId: number) => ({ type: 'Customer', id: customerId }) as const;
/** The commands sent to a customer's phone (device-api's command history). */
export const commandHistoryTag = (customerId: number) =>
  ({ type: 'CommandHistory', id: customerId }) as const;
/**
 * Every list of commands still waiting (offline_command_log, scheduled_commands): a new, sent or
 * cancelled command may join or leave them.
 */
export const PENDING_COMMANDS_TAG = 'PendingCommand' as const;
/**
 * The signed-in person's key balances (getBalanceTypesWithScheme): keys bought online, transferred
 * or credited change them, so whoever moves keys invalidates this tag.
 */
export const KEY_BALANCES_TAG = 'KeyBalances' as const;
/** Every list of protection plans (plans-api's listPlans, each filter). */
export const PLANS_TAG = 'Plan' as const;
/**
 * Every list of plans sold (plans-api's listActivations, each filter): a sale on any screen may join
 * the lists of the others (anti-hacking, family care, anti-theft, extended warranty, a customer's).
 */
export const PLAN_ACTIVATIONS_TAG = 'PlanActivation' as const;
/**
 * The distribution network's lists (issue 30, network-api): a join request approved (admin-api)
 * adds a node below its parent.
 */
export const NETWORK_TAG = { type: 'Network', id: 'LIST' } as const;
