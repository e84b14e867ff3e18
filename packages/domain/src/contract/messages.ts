import { ZDeviceCommand } from '../devices/devices.schema';
import { ZBirthdaysToday, ZSendCustomerMessageRequest } from '../messages/messages.schema';
import { paths } from '../paths';
import { defineRoutes } from './define';

/** The message routes of the wire contract (contract/define.ts): a text to a phone, birthdays. */
export const messagesContract = defineRoutes({
  /**
   * Show a text message from the shop on the customer's phone (a show_message command; at most 10
   * a day per phone). Retailers and mini-retailers, for customers in their scope.
   */
  send: {
    method: 'POST',
    path: paths.messages.send,
    body: ZSendCustomerMessageRequest,
    response: ZDeviceCommand,
  },
  /**
   * Whether today (+05:30) is the signed-in user's birthday, and their customers born today (at
   * most 50). Session required; scoped to the session.
   */
  birthdaysToday: { method: 'GET', path: paths.messages.birthdaysToday, response: ZBirthdaysToday },
});
