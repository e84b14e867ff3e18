import { ZNetwork, ZNetworkQuery, ZNetworkSettings } from '../network/network.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/**
 * The distribution network (issue 30, docs/distribution-network.md): a parent's view of the nodes
 * below it and the organisation's distributor levels. A node outside the actor's subtree answers
 * 404; a shop or customer 403.
 */
export const networkContract = defineRoutes({
  /** The actor's children (or those of `parent_id` in its subtree), each with its key stock. */
  list: { method: 'GET', path: paths.network.list, query: ZNetworkQuery, response: ZNetwork },
  /** Sets how many distributor levels the organisation's network has (organisation admin). */
  saveSettings: {
    method: 'PUT',
    path: paths.network.settings,
    body: ZNetworkSettings,
    response: ZNetworkSettings,
  },
});
