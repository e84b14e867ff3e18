/**
 * The route table of the wire contract (design §3): every API path, spelled as spec §7 spells it.
 * Server routes and client calls both read paths from here; nobody writes an API URL by hand.
 */
export const paths = {
  orgs: {
    /** GET ?org_id= → TOrgAppConfig (public). */
    appConfig: '/api/organizations/get_org_app_config',
    /** GET → TAppConfig (public): client-contract settings. */
    clientConfig: '/api/config/get_app_configs',
    /** GET → TDeviceControlSettings; PUT TDeviceControlSettings → the same (retailers only). */
    deviceSettings: '/api/organizations/device_settings',
  },
  auth: {
    /** POST TLoginWithOtpRequest → TLoginWithOtpResponse. Sends an OTP with purpose LOGIN. */
    loginWithOtp: '/api/auth/loginWithOtp',
    /** POST TVerifyOtpRequest → TAuthSession. */
    verifyOtp: '/api/auth/verifyOtpAuth',
    /** POST, no body → null. Revokes the current session. */
    logout: '/api/auth/logout',
    /** POST TResendOtpRequest → TLoginWithOtpResponse (cool-down: 429). */
    resendOtp: '/api/auth/resend-otp',
    /** POST TForgotMpinRequest → TLoginWithOtpResponse. OTP purpose FORGOT_PASSWORD. */
    forgotMpin: '/api/auth/forgot-password',
    /** POST TResetMpinRequest → null. */
    resetMpin: '/api/auth/reset-password',
    /** POST TMpinLoginRequest → TAuthSession. */
    loginWithMpin: '/api/auth/loginWithMpin',
    /** POST TSetMpinRequest (session) → TCurrentUser. */
    setMpin: '/api/auth/set-mpin',
    /** POST TSendOtpToUserRequest (session) → TLoginWithOtpResponse: OTP to the user's own mobile. */
    sendOtpToUser: '/api/auth/send-otp-to-user',
    /** POST TOfflineLockUnlockRequest → TOfflineCode (OTP purpose BYPASS_CODE). */
    offlineLockUnlock: '/api/auth/offline_lock_unlock',
  },
  sessions: {
    /** GET → TSessionInfo[] (the current user's live sessions, newest first). */
    mine: '/api/sessions/my-sessions',
    /** POST TLogoutSessionRequest → null. */
    logoutOne: '/api/sessions/logout-my-session',
  },
  users: {
    /** GET → TCurrentUser. */
    me: '/api/user/get-details',
    /** GET → TUserAccess (spec §6 defaults with server overrides). */
    userAccess: '/api/user/user_access',
    /** GET → TLockAccess (spec §6 defaults with server overrides). */
    lockAccess: '/api/config/access-config',
    /**
     * GET → TPaymentQrSettings (the actor's own UPI ID, payee name and `upi://pay` link);
     * PUT TSavePaymentQrRequest → the same. Retailers and mini-retailers only (spec §7 "payment QR").
     */
    paymentQr: '/api/user/payment_qr',
    /** POST multipart file (PNG/JPEG of the shop's own UPI QR) → TPaymentQrSettings; DELETE → the same, image removed. */
    paymentQrImage: '/api/user/payment_qr/image',
    /** POST TSignupRequest (public) → null: a shop asks to become a retailer (issue 13). */
    signupRequest: '/api/user/signup_request',
    /** POST multipart user_id?, file → TRetailer: profile image (own, or a mini-retailer's by its parent). */
    profileImage: '/api/user',
    /** POST multipart user_id?, file (PNG) → TRetailer: the retailer's own signature. */
    signature: '/api/user/signature',
    /** GET ?user_id=&kind=profile_image|signature|payment_qr → the image bytes (scoped). */
    image: '/api/user/image',
  },
  retailers: {
    /** POST TAddRetailerRequest → TRetailer: a retailer adds a mini-retailer (add_retailer). */
    add: '/country/addUsers',
    /** GET ?page=&search=&status=active|inactive|all → TRetailerPage: the actor's mini-retailers (retailer_list). */
    list: '/country/getUsers',
    /** POST TUpdateRetailerRequest → TRetailer: edit details, access flags, deactivate or reactivate. */
    update: '/country/updateUsers',
    /** GET ?user_id= → TRetailer (retailer_profile of a mini-retailer). */
    readById: '/api/user/readById',
    /** GET → TRetailerProfile: the actor's own profile with balances. */
    profile: '/api/user/getRetailerProfile',
    /** POST TUpdateOwnProfileRequest → TRetailerProfile: the actor's own date of birth (issue 16). */
    updateOwnProfile: '/api/user/update_profile',
  },
  admin: {
    /** GET ?status= → TSignupRequestItem[] (organisation admin). */
    signupRequests: '/api/admin/signup_requests',
    /** POST TDecideSignupRequest → TSignupRequestItem: approve (creates the retailer, SMS) or decline. */
    decideSignup: '/api/admin/signup_requests/decide',
    /** POST TCreditKeysRequest → TLedgerMovement: the admin credits keys to a retailer. */
    creditKeys: '/api/admin/credit_keys',
    /** GET ?search= → TAdminRetailer[]: the organisation's retailers (for crediting). */
    retailers: '/api/admin/retailers',
    /** GET → TKeyPrices; PUT TKeyPrices → the same: prices per app_type for online purchase. */
    keyPrices: '/api/admin/key_prices',
  },
  oauth: {
    /** GET ?org_id=&redirect= → { url }: Google sign-in (OpenID Connect authorization URL). */
    url: '/api/auth/getOauthUrl',
    /** GET ?code=&state= (the provider's redirect) → 302 to the web app with a one-time ticket. */
    callback: '/api/auth/oauth/callback',
    /** POST { ticket } → TAuthSession: exchanges the one-time ticket for a session. */
    complete: '/api/auth/oauth/complete',
  },
  ledger: {
    /** GET ?user_id= → TKeyBalance[]: keys per app_type (own, or a mini-retailer's for its parent). */
    balances: '/api/points/getBalanceTypesWithScheme',
    /** POST TTransferKeysRequest → TLedgerMovement: keys from a retailer to a mini-retailer or back. */
    transfer: '/api/points/transfer',
    /** GET ?from=&to=&type=&cursor=&user_id= → TTransactionPage (top_up_history; from/to +05:30 days YYYY-MM-DD). */
    transactions: '/api/transaction/getRetailerTransactionV2',
    /** GET ?from=&to=&type=&user_id= → text/csv of the same. */
    transactionsCsv: '/api/transaction/getRetailerTransactionV2/csv',
    /**
     * POST TRefundKeyRequest → TLedgerMovement: gives back the key an enrolment QR spent, for a
     * customer whose phone never enrolled (the QR's token is voided; a new QR costs a key again).
     */
    refundKey: '/api/points/refund_key',
  },
  /** Key requests and returns up the chain (issue 30, docs/key-requests.md). */
  network: {
    /** GET ?parent_id= → TNetwork: the nodes below the actor (or below one of its subtree). */
    list: '/api/network',
    /** PUT TNetworkSettings → the same: the organisation's distributor levels (organisation admin). */
    settings: '/api/network/settings',
  },
  keyRequests: {
    /** GET ?box=sent|received → TKeyRequest[]; POST TCreateKeyRequest → TKeyRequest (to the actor's parent). */
    list: '/api/key_requests',
    /** POST TDecideKeyRequest → TKeyRequest: the parent approves (keys move) or rejects. */
    decide: '/api/key_requests/decide',
    /** POST {request_id} → TKeyRequest: the requester withdraws a pending request. */
    cancel: '/api/key_requests/cancel',
    /** POST TReturnKeysRequest → TLedgerMovement: unused keys back to the parent. */
    returnKeys: '/api/key_requests/return',
    /** GET → TKeyPrices; PUT TKeyPrices: a retailer's price per key to its mini-retailers. */
    prices: '/api/key_requests/prices',
  },
  payments: {
    /** POST TPaymentQuoteRequest → TPaymentQuote, or 409 PRICES_NOT_SET ('Please contact admin for prices'). */
    validate: '/api/payments/validate',
    /** POST TPaymentQuoteRequest → TCheckoutOrder: a gateway order for keys. */
    create: '/api/payments',
    /** POST TCheckoutResult → TPaymentOrderStatus: the checkout's signed callback (razorpay_signature). */
    verify: '/api/payments/verify',
    /** POST (gateway → us, X-Razorpay-Signature) → null. */
    webhook: '/api/payments/webhook',
    /** POST TInstalmentOrderRequest (customer user) → TCheckoutOrder: pay an instalment online. */
    instalment: '/api/payments/instalment',
    /** GET ?order_id= → TPaymentOrderStatus. */
    status: '/api/payments/status',
  },
  webhooks: {
    /** GET → TWebhookEndpoint[]; POST TCreateWebhookEndpoint → {endpoint, secret}; DELETE ?endpoint_id=. */
    endpoints: '/api/webhooks/endpoints',
    /** POST {endpoint_id} → {endpoint, secret}: a new signing secret. */
    rotate: '/api/webhooks/endpoints/rotate',
    /** POST {endpoint_id} → TWebhookEndpoint: enabled again. */
    enable: '/api/webhooks/endpoints/enable',
    /** GET ?endpoint_id= → TWebhookDelivery[]: the delivery log. */
    deliveries: '/api/webhooks/deliveries',
    /** POST {message_id} → TWebhookDelivery: sent again now. */
    resend: '/api/webhooks/deliveries/resend',
  },
  partnerKeys: {
    /** GET → TPartnerKey[]; POST TCreatePartnerKey → {key, apiKey}; DELETE ?key_id= (revoke). */
    keys: '/api/partner_keys',
  },
  /** The partner API (issue 30, docs/partner-api.md): a lender's server with an API key, not a session. */
  partner: {
    /** Every partner route starts so. */
    prefix: '/partner/v1/',
    /** GET → the partner API's own OpenAPI document (no key needed). */
    openapi: '/partner/v1/openapi.json',
    /** GET ?language=&product_id=&first_name=&last_name= → TConsentText (scope devices). */
    consentText: '/partner/v1/consent_text',
    /** GET ?page=&pageSize=&search=&status=&retailer_id= → TCustomerPage (scope read); POST TPartnerCreateLoan → TPartnerLoan (scope devices). */
    customers: '/partner/v1/customers',
    /** GET → TPartnerLoan (scope read). */
    customer: '/partner/v1/customers/:customer_id',
    /** GET → the enrolment QR (scope devices). */
    enrolmentQr: '/partner/v1/customers/:customer_id/enrolment_qr',
    /** POST TPartnerCommandRequest → TPartnerCommand (scope devices). */
    commands: '/partner/v1/customers/:customer_id/commands',
    /** POST TPartnerPaymentRequest + Idempotency-Key → TPaymentReceipt (scope payments). */
    payments: '/partner/v1/customers/:customer_id/payments',
  },
  jobClock: {
    /**
     * POST {job, at} → {job, at, counts}: runs a periodic job as if it were `at` (server config
     * JOB_CLOCK only, never in production; not in the API contract).
     */
    run: '/api/dev/job_clock',
  },
  autopay: {
    /**
     * GET ?customer_id= → TMandate | null; POST TSetUpMandateRequest → TMandate (the UPI AutoPay
     * authorisation to show the customer); DELETE ?customer_id= → TMandate (cancelled).
     */
    mandate: '/api/autopay/mandate',
    /** POST TInstalmentQrRequest → TInstalmentQr: a gateway UPI QR for the oldest unpaid instalment. */
    instalmentQr: '/api/autopay/instalment_qr',
    /** POST (gateway → us, X-Razorpay-Signature): token.*, payment.captured/failed, qr_code.credited. */
    webhook: '/api/autopay/webhook',
  },
  catalogue: {
    /** GET → TProduct[]. */
    products: '/api/products',
    /** GET → TBrand[]: the brands of the organisation's catalogue, A to Z, with their model counts. */
    brands: '/api/brands',
    /** POST, no body → TFinancer[] (spec §7: financer list is a POST). */
    financers: '/country/financer_list',
    /** GET → TCountry[]. */
    countries: '/api/csc/countries',
    /** GET ?country= → TState[]. */
    states: '/api/csc/states',
    /** GET ?country=&state= → TCity[]. */
    cities: '/api/csc/cities',
  },
  plans: {
    /** GET TPlansQuery → TPlan[] (active ones; the admin also sees inactive); PUT TSavePlanRequest (admin) → TPlan. */
    list: '/api/plans',
    /** GET ?plan_id= → TPlan. */
    readById: '/api/plans/readById',
    /** GET → TPlan[]: the active family-care plans (spec §7 get_plans_familycare). */
    familycare: '/api/customer/get_plans_familycare',
    /** GET → TPlan[]: the active anti-hacking plans of tiers 8, 12 and 13 (spec §7 get_plans_antihacking). */
    antihacking: '/api/customer/get_plans_antihacking',
    /** POST TSellPlanRequest → TSellPlanResponseItem[] (spec §3 "add anti-hacking customer"): any plan sold. */
    sell: '/api/customer/add_plan_customer',
    /** GET TActivationsQuery → TPlanActivation[]: plans sold, scoped to the actor. */
    activations: '/api/plans/activations',
    /** GET ?activation_id= → application/pdf: the extended-warranty certificate in the buyer's language. */
    warrantyCertificate: '/api/plans/warranty_certificate',
    /** POST TRedeemActivationRequest (public, the app on the phone) → TRedeemActivationResponse. */
    redeem: '/api/plans/redeem',
  },
  collections: {
    /** GET TCollectionsQuery → TCollectionsSummary (issue 29). */
    summary: '/api/collections/summary',
    /** GET TCollectionsCustomersQuery → TCollectionsCustomersPage: the loans of a DPD bucket. */
    customers: '/api/collections/customers',
    /** GET TCollectionsExportQuery → text/csv or an .xlsx workbook. */
    export: '/api/collections/export',
  },
  reminders: {
    /** GET → TReminderSettings | null; PUT TReminderSettingsRequest (retailer) → the same (issue 29). */
    settings: '/api/reminders/settings',
    /** GET ?customer_id= → TCustomerReminders. */
    ofCustomer: '/api/reminders/customer',
    /** POST TWhatsAppOptOutRequest → TCustomerReminders. */
    whatsappOptOut: '/api/reminders/whatsapp_opt_out',
    /** GET (Meta's verification) and POST (signed delivery statuses): the WhatsApp Cloud API's webhook. */
    whatsappWebhook: '/api/webhooks/whatsapp',
  },
  stats: {
    /** GET → TDashboard. */
    dashboard: '/api/stats/get_keygen_dashboardV1',
    /** GET → TTotalOutstanding. */
    totalOutstanding: '/api/stats/getTotalOutStanding',
  },
  emi: {
    /** GET ?customer_id= → TEmiDetails. */
    details: '/country/get_emi_details',
    /** POST TRecordPaymentRequest → TPaymentReceipt. */
    pay: '/api/emi/multiple_emi_paid',
    /** GET ?range=&page=&pageSize= → TUpcomingEmiPage. */
    upcoming: '/api/emi/getUpcomingEmi',
    /** GET → TUpcomingEmiCounts. */
    upcomingCounts: '/country/upcoming_emi_counts',
    /** GET ?customer_id= → text/csv of the schedule. */
    scheduleCsv: '/api/emi/customer_emi_details/csv',
    /** POST TEditEmiTermsRequest → TEmiDetails (EMI_EDIT, before any payment). */
    editTerms: '/api/emi/edit_terms',
    /** GET (customer user) → TMyLoan[]. */
    myLoans: '/api/emi/customer_emi_details',
    /** POST TUpdateEmiStatusRequest → TEmiDetails (waive an instalment or its penalty). */
    updateStatus: '/country/update_emi_status',
    /** POST TSendEmiAlertRequest → TDeviceCommand (emi_alert to the customer's phone). */
    sendAlert: '/country/send_emialert',
    /** GET ?customer_id= → TCustomerEmiPin (issued on first ask); POST TRotateEmiPinRequest → a new one. */
    emiPin: '/api/emi/customer_emi_pin',
  },
  customers: {
    /** GET ?page=&search=&status= → TCustomerPage. */
    list: '/api/customer',
    /** POST TCreateCustomerRequest → TCustomerDetails. */
    create: '/country/customerRegistrationByKegenUpdateV3',
    /** GET ?customer_id= → TCustomerDetails. */
    details: '/country/getCustomerProfile',
    /** POST TUpdateStatusRequest → TCustomerDetails. */
    updateStatus: '/api/customer/update_status',
    /** GET ?customer_id= → TStatusChange[] (newest first). */
    statusHistory: '/api/customer/status_history',
    /** GET ?search=&status= → text/csv of the customer list. */
    listCsv: '/api/customer/csv',
    /** GET ?customer_id= → TEnrolmentQr (issues a fresh one-time enrolment token). */
    qrCode: '/api/customer/get_customers_qrCode',
    /**
     * GET ?customer_id= → image/png of the enrolment QR (a fresh one-time token, as qrCode), for a
     * DPC build to scan or a print-out; the expiry is in the x-enrolment-expires-at header.
     */
    qrCodePng: '/api/customer/get_customers_qrCode.png',
    /** POST multipart customer_id, kind, file → TMedia (customer photo or invoice attachment). */
    uploadImage: '/upload/update_customer_details',
    /** GET ?customer_id= → TCustomerMedia; POST multipart customer_id, document_type, file → TMedia. */
    documents: '/api/customer/customer_document',
    /** POST TDeleteMediaRequest → TCustomerMedia. */
    deleteDocument: '/api/customer/customer_document/delete',
    /** POST multipart customer_id, kind (customer_signature | witness_signature), file (PNG) → TMedia. */
    signature: '/api/customer/signature',
    /** POST TUpdateImeiRequest → TCustomerDetails (IMEI_EDIT). */
    updateImei: '/country/update_customer_detailsV3',
    /** GET ?customer_id= → TSimChange[] (newest first). */
    simChangeDetails: '/api/customer/customer_sim_change_details',
    /** POST TSendPenaltyRequest → TEmiDetails (levy the organisation's penalty on an overdue instalment). */
    sendPenalty: '/api/customer/send_penalty',
    /** GET → TLoanDefaults: the organisation's loan terms the add-customer form starts with. */
    loanDefaults: '/api/customer/loan_defaults',
    /** GET ?customer_id=&language= → TConsentText: the consent to remote locking, to show before signing. */
    consentText: '/api/customer/consent_text',
    /**
     * GET ?customer_id= → TCustomerConsent | null; POST TRecordConsentRequest → TCustomerConsent (the
     * consent to remote locking, recorded once: a repeat answers the consent that stands).
     */
    consent: '/api/customer/consent',
    /** GET (customer user) → TMyConsent[]: the consents the logged-in customer gave. */
    myConsents: '/api/customer/my_consents',
    /** POST { customer_id } → TCustomerDetails: hand the customer to the financer (HDB) again. */
    createHdb: '/api/customer/create-customer-hdb',
    /** GET ?customer_id= → TEnrolmentQr (kind link): a fresh deep link, token and code (link-based customers only). */
    deepLink: '/api/customer/get_deep_link',
    /** POST TGenerateLinkCodeRequest { customer_id } → TEnrolmentCode: a fresh enrolment code (link-based only). */
    generateEmmCode: '/api/customer/generate_emm_code',
    /** GET ?customer_id= → TEnrolmentCodeState: the link-based enrolment's code issued / expires / used. */
    keygen: '/api/customer/get_customers_keygen',
  },
  devices: {
    /** POST TLockUnlockRequest → TDeviceCommand (with run_at: scheduled). */
    lock: '/api/device/lock',
    /** POST TLockUnlockRequest → TDeviceCommand (with run_at: scheduled). */
    unlock: '/api/device/unlock',
    /** POST TEnrolDeviceRequest → TEnrolDeviceResponse. Called by the device, not a user. */
    enrol: '/api/device/enrol',
    /**
     * POST TReEnrolRequest → TReEnrolResponse: the shop re-enrols a wiped, replaced or lost phone
     * (issue 27); then get_customers_qrCode gives the new QR.
     */
    reEnrol: '/api/device/re_enrol',
    /** GET ?customer_id= → TCommandHistoryItem[] (newest first). */
    history: '/api/device/command_history',
    /** GET → TOfflineCommand[]: commands still waiting for phones that are offline, oldest first. */
    offlineCommandLog: '/api/device/offline_command_log',
    /** POST TCancelCommandRequest → TCommandHistoryItem. */
    cancel: '/api/device/cancel_command',
    /** POST TBulkLockRequest → TBulkProgress. */
    bulkLockUnlock: '/country/multiple_device_lock_unlock',
    /** GET ?action=&filter= → TBulkPreview: how many phones a filter would reach (nothing sent). */
    bulkPreview: '/country/multiple_device_lock_unlock_preview',
    /** POST TBypassCodeRequest → TOfflineCode: the offline unlock code (OTP purpose BYPASS_CODE). */
    bypassCode: '/api/device/get_device_bypass_code',
    /** POST TUninstallRequest → TDeviceCommand: release the phone (OTP purpose UNINSTALL). */
    uninstall: '/api/device/uninstall',
    /** POST TDeviceCommandRequest → TDeviceCommand: release the phone of a customer whose EMIs are completed. */
    unclaim: '/api/device/unclaim_customer',
    /** GET ?page=&pageSize= → TSimChangePage (sim_changes screen, newest first). */
    simChanges: '/api/device/sim_changes',
    /** GET ?batch_id= → TBulkProgress. */
    bulkProgress: '/api/device/multiple_lock_unlock_status',
    /** POST TBrokerAuthRequest → TBrokerHookAnswer: the external broker asks whether a client may connect. */
    brokerAuth: '/api/device/broker_auth',
    /** POST TBrokerAclRequest → TBrokerHookAnswer: the external broker asks whether a client may use a topic. */
    brokerAcl: '/api/device/broker_acl',
    /** GET → TScheduledCommand[]: commands waiting for their run_at, soonest first. */
    scheduledCommands: '/api/device/scheduled_commands',
    /** POST TChangeDevicePinRequest → TDeviceCommand: a new screen-lock PIN (OTP purpose BYPASS_CODE). */
    changeDevicePin: '/country/change_device_pinV1',
  },
  /** Enrolment of every device family (issue 15; spec §7 Apple/enrolment). */
  emm: {
    /**
     * GET → the device policy controller's APK, where the provisioning QR points unless
     * DPC_DOWNLOAD_URL names the real one (the demo serves a clearly named placeholder).
     */
    dpcApk: '/downloads/kisht-dpc.apk',
    /**
     * GET (public) → the link-based app's APK (application/vnd.android.package-archive): the file
     * at LINK_APP_APK_FILE, a redirect to LINK_APP_DOWNLOAD_URL, or on a demo server a clearly
     * named plain-text placeholder (never a 404).
     */
    linkApk: '/emm/linkflapk',
    /**
     * GET ?org_id=&token= (public) → text/html: the deep link's landing page a phone opens (link-based
     * family): an "Install the Kisht app" APK link, the instructions, and the kisht://enrol link
     * that hands the token to the installed app. 410 for an expired or spent link.
     */
    deepLinkLanding: '/emm/l',
    /** POST TGenerateLinkCodeRequest { customer_id } → TEnrolmentQr (kind link): a fresh token, deep link and code. */
    generateCodeLinkfl: '/emm/generate_code_linkfl',
    /**
     * POST TExchangeEnrolmentCodeRequest { orgId, code } (public, rate-limited, no client headers:
     * the link-based app on the phone) → TExchangeEnrolmentCodeResponse { token, serverUrl }; an
     * unknown, expired or other organisation's code → 404 'Code not found'.
     */
    exchangeCode: '/emm/generate_code',
  },
  /** Apple devices through NanoMDM (issue 15; spec §7 /micromdm). */
  apple: {
    /** GET ?customer_id= → TEnrolmentQr (kind apple_profile): the enrolment profile's URL as a QR. */
    qr: '/micromdm/apple_qr',
    /** GET ?customer_id= → TAppleDetails (apple_details). */
    details: '/micromdm/apple_details',
    /** POST TDeviceCommandRequest → TDeviceCommand: ask the iPhone for its DeviceInformation (apple_sync, CHECK_STATUS). */
    requestSync: '/micromdm/apple_request_sync',
    /** POST TDeviceCommandRequest → TDeviceCommand: fetch the Activation Lock bypass code, so a returned iPhone can be reset. */
    disableActivationLock: '/micromdm/disable_activation_lock',
    /** POST TDeviceCommandRequest → TDeviceCommand: install the Kisht one-mode app (InstallApplication). */
    installOneModeApp: '/country/installAppleOneModeApp',
    /** POST TAppleCustomerUpdateRequest → TCustomerDetails: correct the serial number before enrolment. */
    customerUpdate: '/country/appleCustomerByKegenUpdate',
    /** POST TDeviceCommandRequest → TDeviceCommand: release an iPhone whose EMIs are completed. */
    unclaim: '/country/unclaim_apple',
    /** POST NanoMDM's webhook (JSON; X-Hmac-Signature): command results and check-ins. Called by NanoMDM. */
    webhook: '/micromdm/webhook',
    /** GET /micromdm/enrol/{token}.mobileconfig → the enrolment profile (public: Safari on the iPhone opens it). */
    enrolmentProfilePrefix: '/micromdm/enrol/',
  },
  /** Managed Android phones through Google's Android Management API (issue 15). */
  androidManagement: {
    /**
     * POST { customer_id } → TAmapiSyncResult: ask the Android Management API now whether the
     * customer's managed-Android phone (device_type 1) has enrolled (or was deleted), instead of
     * waiting for the sync job.
     */
    sync: '/api/device/amapi_sync',
  },
  /** Messages to a customer's phone and the dashboard's birthdays (issue 16). */
  messages: {
    /** POST TSendCustomerMessageRequest → TDeviceCommand (show_message to the customer's phone; spec §7). */
    send: '/country/send_fcm_retailer_to_customer',
    /** GET → TBirthdaysToday: the actor's own birthday and the customers in scope born today (+05:30). */
    birthdaysToday: '/api/customer/birthdays_today',
  },
  /** In-app notifications (issue 16, spec §7 `/api/notifications`): the actor's own only. */
  notifications: {
    /** GET ?page=&unread= → TNotificationPage (newest first). */
    list: '/api/notifications',
    /** GET → TUnreadCount. */
    unreadCount: '/api/notifications/unread_count',
    /** POST TMarkNotificationsReadRequest { ids } | { all: true } → TMarkNotificationsReadResponse. */
    read: '/api/notifications/read',
  },
  /**
   * The organisation's help, support and privacy-policy pages (issue 16). GET ?language= →
   * TOrgPageView (everyone signed in); PUT TSaveOrgPageRequest → TOrgPageView (organisation admin).
   * One path per page (orgPagePath).
   */
  orgPages: {
    help: '/api/org_pages/help',
    support: '/api/org_pages/support',
    privacyPolicy: '/api/org_pages/privacy_policy',
    /** PUT TSaveSupportContactRequest → TSupportContact (organisation admin). */
    supportContact: '/api/org_pages/support_contact',
  },
  /** send_advertisement (issue 16): a retailer's ads, sent to its customers' phones as show_ad. */
  advertisements: {
    /** POST multipart title, text?, file? (JPEG/PNG) → TAdvertisement: a new ad of the actor (spec §7). */
    upload: '/upload/update_retailer_ad',
    /** GET → TAdvertisement[]: the actor's own ads, newest first, with their sends' progress counts. */
    list: '/api/advertisements',
    /** GET → TAdvertisement | null: the ad the app shows (own newest; a customer's retailer's newest). */
    current: '/api/advertisements/current',
    /** GET ?advertisement_id= → the ad's image bytes (its retailer, the parent, or their customers). */
    image: '/api/advertisements/image',
    /** POST TSendAdvertisementRequest → TAdvertisementSendProgress: show_ad to the chosen phones. */
    send: '/api/advertisements/send',
    /** GET TAdvertisementPreviewQuery → TBulkPreview: how many phones a filter or status reaches. */
    sendPreview: '/api/advertisements/send_preview',
    /** GET ?send_id= → TAdvertisementSendProgress. */
    sendStatus: '/api/advertisements/send_status',
    /** GET ?image=&exp=&sig= (public: the phone) → the image bytes; a wrong or expired signature 403. */
    deviceImage: '/api/device/ad_image',
  },
  media: {
    /**
     * GET ?image_name= → the stored file (scoped to the actor's customers); without image_name,
     * ?page=&pageSize= → TMediaPage: the files the actor may see, metadata only (spec §7 /api/medias).
     */
    file: '/api/medias',
  },
  /** MQTT over WebSocket on the API port (design §1). */
  mqtt: '/mqtt',
  /** OpenAPI UI. */
  docs: '/docs',
} as const;

/**
 * POST TDeviceControlRequest → TDeviceCommand: the command path of a control feature of spec §6
 * (`/api/device/{feature}`, e.g. /api/device/camera_lock). Lock and unlock keep paths.devices.lock
 * and .unlock.
 */
export const deviceControlPath = (feature: string): string => `/api/device/${feature}`;

/** The path of an organisation page (`/api/org_pages/{page}`, page: help, support or privacy_policy). */
export const orgPagePath = (page: 'help' | 'support' | 'privacy_policy'): string => `/api/org_pages/${page}`;
