import type { TOrgPage, TOrgPageLanguage } from './org-pages.schema';

/**
 * The built-in help, support and privacy-policy texts (issue 16), shown until an organisation
 * writes its own, and the demo seed's starting content. Markdown, in English and Hindi; other
 * languages fall back to English. No leading `# title`: the screen shows the page's title. `{{orgName}}` and `{{companyName}}` are filled by
 * renderDefaultOrgPage.
 */
const DEFAULT_PAGES: Record<TOrgPage, Partial<Record<TOrgPageLanguage, string>>> = {
  help: {
    en: `Welcome to **{{orgName}}**. This app keeps track of the phone you bought on EMI and of your payments.

## Paying your EMI
- Open **Dashboard** to see your next instalment, its due date and what is overdue.
- Pay at your shop, or by UPI with the QR code your shop shows you.
- Every payment gets a receipt number. Keep it until the payment shows in the app.

## If your phone is locked
- The lock screen says why the phone is locked: an overdue instalment, your own request, a report
  that it was stolen or misused, or another reason your shop recorded. It also says whom to call.
- When an instalment is overdue, the lock screen shows the amount. Pay it: the phone unlocks on its
  own within a few minutes once it is online.
- Once every EMI is paid, the phone is yours: it is never locked again.
- **Emergency calls (112) always work**, even on a locked phone.

## Changing the language
Open the menu, choose **Language** and tap your language. The app remembers it.

## Still need help?
Open **Support** to reach {{companyName}} by phone, WhatsApp or e-mail.
`,
    hn: `**{{orgName}}** में आपका स्वागत है। यह ऐप EMI पर खरीदे गए आपके फ़ोन और आपके भुगतानों का हिसाब रखता है।

## EMI का भुगतान
- अगली किस्त, उसकी तारीख़ और बकाया राशि देखने के लिए **डैशबोर्ड** खोलें।
- अपनी दुकान पर भुगतान करें, या दुकान के दिखाए QR कोड से UPI द्वारा भुगतान करें।
- हर भुगतान की एक रसीद संख्या होती है। भुगतान ऐप में दिखने तक उसे संभाल कर रखें।

## अगर आपका फ़ोन लॉक हो गया है
- लॉक स्क्रीन बताती है कि फ़ोन क्यों लॉक है: कोई किस्त बकाया है, आपने खुद कहा था, फ़ोन चोरी या गलत इस्तेमाल
  की शिकायत है, या दुकान का दर्ज किया कोई और कारण। यह भी बताती है कि किसे कॉल करें।
- किस्त बकाया होने पर लॉक स्क्रीन पर राशि दिखती है। उसे चुकाएँ: फ़ोन ऑनलाइन होते ही कुछ मिनटों में अपने-आप
  अनलॉक हो जाता है।
- सारी EMI चुक जाने के बाद फ़ोन आपका है: वह फिर कभी लॉक नहीं होता।
- **आपातकालीन कॉल (112) हमेशा चलती है**, लॉक फ़ोन पर भी।

## भाषा बदलना
मेन्यू खोलें, **भाषा** चुनें और अपनी भाषा पर टैप करें। ऐप आपकी पसंद याद रखता है।

## और मदद चाहिए?
{{companyName}} को कॉल, WhatsApp या ई-मेल करने के लिए **सहायता** खोलें।
`,
  },
  support: {
    en: `The {{companyName}} team is here to help with payments, a locked phone or anything in the app.

**Hours:** Monday to Saturday, 10:00 AM to 7:00 PM (IST).

Before you contact us, please keep ready:
1. the mobile number you registered with,
2. your phone's IMEI (dial \`*#06#\`),
3. the receipt number of any payment you are asking about.

Use the buttons below to call, message us on WhatsApp or write an e-mail.
`,
    hn: `{{companyName}} की टीम भुगतान, लॉक फ़ोन या ऐप से जुड़ी किसी भी बात में आपकी मदद के लिए है।

**समय:** सोमवार से शनिवार, सुबह 10:00 से शाम 7:00 बजे तक (IST)।

संपर्क करने से पहले कृपया ये तैयार रखें:
1. पंजीकृत मोबाइल नंबर,
2. आपके फ़ोन का IMEI (\`*#06#\` डायल करें),
3. जिस भुगतान के बारे में पूछ रहे हैं, उसकी रसीद संख्या।

कॉल करने, WhatsApp पर संदेश भेजने या ई-मेल लिखने के लिए नीचे दिए बटन इस्तेमाल करें।
`,
  },
  privacy_policy: {
    en: `This policy explains what **{{companyName}}** ("we") keeps about you when you buy a phone on EMI through {{orgName}}, and why.

## What we keep
- Your name, mobile number, address and the documents you gave at the shop (for example an ID card).
- Your loan: the price, the instalments, what you paid and when.
- Your phone: its IMEI numbers and, while the loan runs, its lock state, SIM changes and, when your shop asks for it, its location.

## Why we keep it
- To run your loan and send you reminders.
- To lock or limit the phone when an instalment is overdue, as you agreed at the shop, and to unlock it when you pay.
- To meet the law (for example KYC and tax records).

## What we do not do
- We do not read your messages, photos, calls or contacts.
- We do not sell your data.

## Who sees it
Your shop and {{companyName}}, and the lender or insurer of your plan when there is one. Nobody else, unless the law requires it.

## How long
While your loan runs, and afterwards only as long as the law requires. When the loan ends, the phone is released from all controls.

## Your rights
Under India's Digital Personal Data Protection Act, 2023, you may ask to see or correct your data, or ask a question or complain, through **Support**.
`,
    hn: `यह नीति बताती है कि जब आप {{orgName}} के ज़रिए EMI पर फ़ोन खरीदते हैं, तब **{{companyName}}** ("हम") आपकी कौन-सी जानकारी रखता है, और क्यों।

## हम क्या रखते हैं
- आपका नाम, मोबाइल नंबर, पता और दुकान पर दिए गए दस्तावेज़ (जैसे पहचान पत्र)।
- आपका लोन: कीमत, किस्तें, आपने कब और कितना भुगतान किया।
- आपका फ़ोन: उसके IMEI नंबर और, लोन चलने तक, उसकी लॉक स्थिति, SIM बदलाव और, दुकान के माँगने पर, उसकी लोकेशन।

## हम इसे क्यों रखते हैं
- आपका लोन चलाने और आपको याद दिलाने के लिए।
- किस्त बकाया होने पर फ़ोन को लॉक या सीमित करने के लिए, जैसा आपने दुकान पर स्वीकार किया था, और भुगतान पर उसे अनलॉक करने के लिए।
- क़ानून का पालन करने के लिए (जैसे KYC और कर रिकॉर्ड)।

## हम क्या नहीं करते
- हम आपके संदेश, फ़ोटो, कॉल या संपर्क नहीं पढ़ते।
- हम आपका डेटा नहीं बेचते।

## इसे कौन देखता है
आपकी दुकान और {{companyName}}, और आपके प्लान का ऋणदाता या बीमाकर्ता, यदि कोई हो। क़ानूनी ज़रूरत के बिना और कोई नहीं।

## कितने समय तक
लोन चलने तक, और उसके बाद केवल उतने समय तक जितना क़ानून कहता है। लोन पूरा होने पर फ़ोन सभी नियंत्रणों से मुक्त हो जाता है।

## आपके अधिकार
डिजिटल व्यक्तिगत डेटा संरक्षण अधिनियम, 2023 के तहत आप अपना डेटा देखने या सुधारने, या कोई प्रश्न या शिकायत करने के लिए **सहायता** से संपर्क कर सकते हैं।
`,
  },
};

/** What the built-in texts name: the organisation as the app shows it, and its company. */
export type TOrgPageDefaultValues = { orgName: string; companyName: string };

/** The languages that have a built-in text of `page`. */
export const defaultOrgPageLanguages = (page: TOrgPage): TOrgPageLanguage[] =>
  Object.keys(DEFAULT_PAGES[page]) as TOrgPageLanguage[];

/**
 * The built-in text of `page` in `language` with the organisation's names filled in, or null when
 * there is none in that language.
 */
export const renderDefaultOrgPage = (
  page: TOrgPage,
  language: TOrgPageLanguage,
  values: TOrgPageDefaultValues,
): string | null => {
  const template = DEFAULT_PAGES[page][language];
  if (template === undefined) return null;
  return template.replace(
    /\{\{(orgName|companyName)\}\}/g,
    (_match, key: keyof TOrgPageDefaultValues) => values[key],
  );
};
