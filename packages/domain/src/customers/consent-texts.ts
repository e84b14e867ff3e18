import { formatIndianMobile } from '../common/format';

/**
 * The text a customer agrees to before their phone is enrolled for remote locking, in each of the
 * ten interface languages of spec §1. Server and web read it from here: the server renders it for
 * the customer (consent_text), stores the rendered text with CONSENT_TEXT_VERSION when the consent
 * is recorded, and refuses a recording made against another version.
 *
 * What it says, in plain words (India's lenders are moving to explicit borrower consent for phone
 * locks): what the retailer may do to the phone and when (lock or limit features when an EMI is
 * overdue, reminders, unlock on payment, locate, SIM changes, release when the loan ends), that
 * emergency calls always work on a locked phone, what the retailer cannot see, and whom to contact
 * and pay. Change the wording only together with a new CONSENT_TEXT_VERSION.
 */

/** Interface languages of spec §1 (the spec's own codes: hn Hindi, bd Bengali, sp Spanish, …). */
export const CONSENT_LANGUAGES = ['en', 'hn', 'mr', 'gj', 'sp', 'bd', 'kn', 'tg', 'tm', 'pp'] as const;
export type TConsentLanguage = (typeof CONSENT_LANGUAGES)[number];

/** The version of the texts below; a recorded consent keeps the version it was given under. */
export const CONSENT_TEXT_VERSION = 'lock-consent-v1';

/** India's emergency number (ERSS), which a locked phone always lets the borrower call. */
export const EMERGENCY_NUMBER = '112';

/** What a consent text names: the customer, the phone, the retailer and how to reach them, the lender. */
export type TConsentTextValues = {
  customerName: string;
  productName: string;
  retailerName: string;
  /** The retailer's mobile as shown to people, e.g. +91 98765 43210. */
  retailerPhone: string;
  /** The lender: the organisation's company name. */
  orgName: string;
};

/** Placeholders each template carries, each filled by renderConsentText. */
export const CONSENT_PLACEHOLDERS = [
  'customerName',
  'productName',
  'retailerName',
  'retailerPhone',
  'orgName',
] as const satisfies ReadonlyArray<keyof TConsentTextValues>;

const TEMPLATES: Record<TConsentLanguage, string> = {
  en: `Consent to remote locking of a phone bought on EMI

I, {{customerName}}, am buying this phone ({{productName}}) on EMI from {{retailerName}}, with a loan from {{orgName}}. Until the loan is fully paid, I agree that {{retailerName}} may, through the app installed on this phone:
• lock the phone, or limit some of its features (such as the camera or some apps), when an EMI is overdue, and show on the locked screen the amount due and how to pay;
• send payment reminders to the phone;
• unlock the phone when the overdue amount is paid;
• find the phone's location;
• see when a SIM card is changed or removed;
• remove the app and release the phone for good when the loan ends.
Emergency calls (112) always work, even when the phone is locked.
Through this app the retailer cannot see my messages, calls, photos or contacts.
To pay an EMI or ask anything, contact {{retailerName}} at {{retailerPhone}}.
I have read this text, or had it read to me in a language I understand, and I agree to it.`,

  hn: `EMI पर खरीदे गए फ़ोन को दूर से लॉक करने की सहमति

मैं, {{customerName}}, यह फ़ोन ({{productName}}) {{retailerName}} से EMI पर खरीद रहा/रही हूँ, जिसका ऋण {{orgName}} दे रहा है। ऋण पूरा चुकाए जाने तक, मैं सहमति देता/देती हूँ कि {{retailerName}} इस फ़ोन में इंस्टॉल किए गए ऐप के ज़रिए:
• कोई EMI बकाया होने पर फ़ोन लॉक कर सकता है या उसकी कुछ सुविधाएँ (जैसे कैमरा या कुछ ऐप) सीमित कर सकता है, और लॉक स्क्रीन पर बकाया राशि और भुगतान का तरीका दिखा सकता है;
• फ़ोन पर भुगतान के रिमाइंडर भेज सकता है;
• बकाया राशि चुकाने पर फ़ोन अनलॉक करेगा;
• फ़ोन की लोकेशन पता कर सकता है;
• देख सकता है कि SIM कार्ड कब बदला या निकाला गया;
• ऋण पूरा होने पर ऐप हटाकर फ़ोन को हमेशा के लिए मुक्त करेगा।
फ़ोन लॉक होने पर भी आपातकालीन कॉल (112) हमेशा काम करती हैं।
इस ऐप से विक्रेता मेरे संदेश, कॉल, फ़ोटो या संपर्क नहीं देख सकता।
EMI भरने या कुछ भी पूछने के लिए {{retailerName}} से {{retailerPhone}} पर संपर्क करें।
मैंने यह पाठ पढ़ लिया है, या मुझे मेरी समझ की भाषा में पढ़कर सुनाया गया है, और मैं इससे सहमत हूँ।`,

  mr: `EMI वर घेतलेला फोन दूरून लॉक करण्यास संमती

मी, {{customerName}}, हा फोन ({{productName}}) {{retailerName}} यांच्याकडून EMI वर घेत आहे, ज्याचे कर्ज {{orgName}} देत आहे. कर्ज पूर्ण फेडेपर्यंत, मी संमती देतो/देते की {{retailerName}} या फोनवर इन्स्टॉल केलेल्या ॲपद्वारे:
• एखादा EMI थकीत असल्यास फोन लॉक करू शकतात किंवा त्याच्या काही सुविधा (जसे कॅमेरा किंवा काही ॲप्स) मर्यादित करू शकतात, आणि लॉक स्क्रीनवर थकीत रक्कम व पैसे कसे भरायचे ते दाखवू शकतात;
• फोनवर पेमेंटची आठवण करून देणारे संदेश पाठवू शकतात;
• थकीत रक्कम भरल्यावर फोन अनलॉक करतील;
• फोनचे लोकेशन शोधू शकतात;
• SIM कार्ड कधी बदलले किंवा काढले गेले ते पाहू शकतात;
• कर्ज संपल्यावर ॲप काढून फोन कायमचा मोकळा करतील.
फोन लॉक असतानाही आपत्कालीन कॉल (112) नेहमी चालतात.
या ॲपद्वारे विक्रेत्याला माझे संदेश, कॉल, फोटो किंवा संपर्क दिसत नाहीत.
EMI भरण्यासाठी किंवा काहीही विचारण्यासाठी {{retailerName}} यांच्याशी {{retailerPhone}} वर संपर्क साधा.
मी हा मजकूर वाचला आहे, किंवा मला समजणाऱ्या भाषेत वाचून दाखवला गेला आहे, आणि मी त्याच्याशी सहमत आहे.`,

  gj: `EMI પર ખરીદેલા ફોનને દૂરથી લૉક કરવાની સંમતિ

હું, {{customerName}}, આ ફોન ({{productName}}) {{retailerName}} પાસેથી EMI પર ખરીદી રહ્યો/રહી છું, જેની લોન {{orgName}} આપે છે. લોન પૂરેપૂરી ચૂકવાય ત્યાં સુધી, હું સંમતિ આપું છું કે {{retailerName}} આ ફોનમાં ઇન્સ્ટોલ કરેલી એપ દ્વારા:
• કોઈ EMI બાકી હોય ત્યારે ફોન લૉક કરી શકે છે અથવા તેની કેટલીક સુવિધાઓ (જેમ કે કૅમેરા કે કેટલીક એપ) મર્યાદિત કરી શકે છે, અને લૉક સ્ક્રીન પર બાકી રકમ અને ચુકવણી કેવી રીતે કરવી તે બતાવી શકે છે;
• ફોન પર ચુકવણીના રિમાઇન્ડર મોકલી શકે છે;
• બાકી રકમ ચૂકવાય ત્યારે ફોન અનલૉક કરશે;
• ફોનનું લોકેશન શોધી શકે છે;
• SIM કાર્ડ ક્યારે બદલાયું કે કાઢવામાં આવ્યું તે જોઈ શકે છે;
• લોન પૂરી થાય ત્યારે એપ દૂર કરીને ફોનને કાયમ માટે મુક્ત કરશે.
ફોન લૉક હોય ત્યારે પણ ઇમરજન્સી કૉલ (112) હંમેશા ચાલે છે.
આ એપ દ્વારા વેપારી મારા મેસેજ, કૉલ, ફોટા કે સંપર્કો જોઈ શકતા નથી.
EMI ભરવા કે કંઈ પણ પૂછવા માટે {{retailerName}} નો {{retailerPhone}} પર સંપર્ક કરો.
મેં આ લખાણ વાંચ્યું છે, અથવા મને સમજાય તેવી ભાષામાં વાંચી સંભળાવવામાં આવ્યું છે, અને હું તેની સાથે સંમત છું.`,

  sp: `Consentimiento para el bloqueo remoto de un celular comprado en cuotas (EMI)

Yo, {{customerName}}, compro este celular ({{productName}}) en cuotas (EMI) a {{retailerName}}, con un préstamo de {{orgName}}. Hasta que el préstamo esté pagado por completo, acepto que {{retailerName}}, mediante la app instalada en este celular, pueda:
• bloquear el celular, o limitar algunas de sus funciones (como la cámara o algunas apps), cuando una cuota esté vencida, y mostrar en la pantalla bloqueada el monto adeudado y cómo pagar;
• enviar recordatorios de pago al celular;
• desbloquear el celular cuando se pague el monto vencido;
• ver la ubicación del celular;
• ver cuándo se cambia o se retira una tarjeta SIM;
• quitar la app y liberar el celular definitivamente cuando termine el préstamo.
Las llamadas de emergencia (112) siempre funcionan, incluso con el celular bloqueado.
A través de esta app, el vendedor no puede ver mis mensajes, llamadas, fotos ni contactos.
Para pagar una cuota o hacer cualquier consulta, contacte a {{retailerName}} al {{retailerPhone}}.
He leído este texto, o me lo han leído en un idioma que entiendo, y lo acepto.`,

  bd: `EMI-তে কেনা ফোন দূর থেকে লক করার সম্মতি

আমি, {{customerName}}, {{retailerName}}-এর কাছ থেকে এই ফোনটি ({{productName}}) EMI-তে কিনছি, যার ঋণ দিচ্ছে {{orgName}}। ঋণ সম্পূর্ণ পরিশোধ না হওয়া পর্যন্ত, আমি সম্মতি দিচ্ছি যে {{retailerName}} এই ফোনে ইনস্টল করা অ্যাপের মাধ্যমে:
• কোনো EMI বকেয়া থাকলে ফোন লক করতে পারে বা এর কিছু সুবিধা (যেমন ক্যামেরা বা কিছু অ্যাপ) সীমিত করতে পারে, এবং লক স্ক্রিনে বকেয়া টাকার পরিমাণ ও কীভাবে পরিশোধ করতে হবে তা দেখাতে পারে;
• ফোনে পেমেন্টের রিমাইন্ডার পাঠাতে পারে;
• বকেয়া টাকা পরিশোধ হলে ফোন আনলক করবে;
• ফোনের লোকেশন খুঁজে দেখতে পারে;
• SIM কার্ড কখন বদলানো বা খুলে ফেলা হয়েছে তা দেখতে পারে;
• ঋণ শেষ হলে অ্যাপ সরিয়ে ফোনটি চিরতরে মুক্ত করে দেবে।
ফোন লক থাকলেও জরুরি কল (112) সবসময় কাজ করে।
এই অ্যাপের মাধ্যমে বিক্রেতা আমার মেসেজ, কল, ছবি বা কন্টাক্ট দেখতে পারে না।
EMI পরিশোধ করতে বা কিছু জানতে {{retailerName}}-এর সাথে {{retailerPhone}} নম্বরে যোগাযোগ করুন।
আমি এই লেখাটি পড়েছি, অথবা আমার বোঝার ভাষায় আমাকে পড়ে শোনানো হয়েছে, এবং আমি এতে সম্মত।`,

  kn: `EMI ನಲ್ಲಿ ಖರೀದಿಸಿದ ಫೋನ್ ಅನ್ನು ದೂರದಿಂದ ಲಾಕ್ ಮಾಡಲು ಒಪ್ಪಿಗೆ

ನಾನು, {{customerName}}, ಈ ಫೋನ್ ({{productName}}) ಅನ್ನು {{retailerName}} ಅವರಿಂದ EMI ನಲ್ಲಿ ಖರೀದಿಸುತ್ತಿದ್ದೇನೆ, ಇದರ ಸಾಲವನ್ನು {{orgName}} ನೀಡುತ್ತಿದೆ. ಸಾಲವನ್ನು ಪೂರ್ತಿಯಾಗಿ ತೀರಿಸುವವರೆಗೆ, ಈ ಫೋನ್‌ನಲ್ಲಿ ಇನ್‌ಸ್ಟಾಲ್ ಮಾಡಿದ ಆ್ಯಪ್ ಮೂಲಕ {{retailerName}} ಅವರು ಈ ಕೆಳಗಿನವುಗಳನ್ನು ಮಾಡಬಹುದು ಎಂದು ನಾನು ಒಪ್ಪುತ್ತೇನೆ:
• ಯಾವುದೇ EMI ಬಾಕಿ ಇದ್ದಾಗ ಫೋನ್ ಅನ್ನು ಲಾಕ್ ಮಾಡುವುದು ಅಥವಾ ಅದರ ಕೆಲವು ವೈಶಿಷ್ಟ್ಯಗಳನ್ನು (ಕ್ಯಾಮೆರಾ ಅಥವಾ ಕೆಲವು ಆ್ಯಪ್‌ಗಳಂತಹ) ನಿರ್ಬಂಧಿಸುವುದು, ಮತ್ತು ಲಾಕ್ ಸ್ಕ್ರೀನ್‌ನಲ್ಲಿ ಬಾಕಿ ಮೊತ್ತ ಹಾಗೂ ಪಾವತಿಸುವ ವಿಧಾನವನ್ನು ತೋರಿಸುವುದು;
• ಫೋನ್‌ಗೆ ಪಾವತಿ ಜ್ಞಾಪನೆಗಳನ್ನು ಕಳುಹಿಸುವುದು;
• ಬಾಕಿ ಮೊತ್ತ ಪಾವತಿಸಿದಾಗ ಫೋನ್ ಅನ್‌ಲಾಕ್ ಮಾಡುವುದು;
• ಫೋನ್‌ನ ಸ್ಥಳವನ್ನು ಪತ್ತೆಹಚ್ಚುವುದು;
• SIM ಕಾರ್ಡ್ ಯಾವಾಗ ಬದಲಾಯಿಸಲಾಗಿದೆ ಅಥವಾ ತೆಗೆಯಲಾಗಿದೆ ಎಂದು ನೋಡುವುದು;
• ಸಾಲ ಮುಗಿದಾಗ ಆ್ಯಪ್ ಅನ್ನು ತೆಗೆದು ಫೋನ್ ಅನ್ನು ಶಾಶ್ವತವಾಗಿ ಬಿಡುಗಡೆ ಮಾಡುವುದು.
ಫೋನ್ ಲಾಕ್ ಆಗಿದ್ದರೂ ತುರ್ತು ಕರೆಗಳು (112) ಯಾವಾಗಲೂ ಕೆಲಸ ಮಾಡುತ್ತವೆ.
ಈ ಆ್ಯಪ್ ಮೂಲಕ ಮಾರಾಟಗಾರರು ನನ್ನ ಸಂದೇಶಗಳು, ಕರೆಗಳು, ಫೋಟೋಗಳು ಅಥವಾ ಸಂಪರ್ಕಗಳನ್ನು ನೋಡಲು ಸಾಧ್ಯವಿಲ್ಲ.
EMI ಪಾವತಿಸಲು ಅಥವಾ ಏನಾದರೂ ಕೇಳಲು {{retailerName}} ಅವರನ್ನು {{retailerPhone}} ನಲ್ಲಿ ಸಂಪರ್ಕಿಸಿ.
ನಾನು ಈ ಪಠ್ಯವನ್ನು ಓದಿದ್ದೇನೆ, ಅಥವಾ ನನಗೆ ಅರ್ಥವಾಗುವ ಭಾಷೆಯಲ್ಲಿ ಓದಿ ಹೇಳಲಾಗಿದೆ, ಮತ್ತು ನಾನು ಇದಕ್ಕೆ ಒಪ್ಪುತ್ತೇನೆ.`,

  tg: `EMI పై కొన్న ఫోన్‌ను దూరం నుండి లాక్ చేయడానికి సమ్మతి

నేను, {{customerName}}, ఈ ఫోన్ ({{productName}}) ను {{retailerName}} నుండి EMI పై కొంటున్నాను, దీని రుణాన్ని {{orgName}} ఇస్తోంది. రుణం పూర్తిగా చెల్లించే వరకు, ఈ ఫోన్‌లో ఇన్‌స్టాల్ చేసిన యాప్ ద్వారా {{retailerName}} ఈ క్రింది వాటిని చేయవచ్చని నేను అంగీకరిస్తున్నాను:
• ఏదైనా EMI బకాయి ఉన్నప్పుడు ఫోన్‌ను లాక్ చేయడం లేదా దాని కొన్ని ఫీచర్లను (కెమెరా లేదా కొన్ని యాప్‌లు వంటివి) పరిమితం చేయడం, మరియు లాక్ స్క్రీన్‌పై బకాయి మొత్తాన్ని, ఎలా చెల్లించాలో చూపించడం;
• ఫోన్‌కు చెల్లింపు రిమైండర్‌లు పంపడం;
• బకాయి మొత్తం చెల్లించినప్పుడు ఫోన్‌ను అన్‌లాక్ చేయడం;
• ఫోన్ లొకేషన్‌ను కనుగొనడం;
• SIM కార్డ్ ఎప్పుడు మార్చబడిందో లేదా తీసివేయబడిందో చూడటం;
• రుణం ముగిసినప్పుడు యాప్‌ను తీసివేసి ఫోన్‌ను శాశ్వతంగా విడుదల చేయడం.
ఫోన్ లాక్ అయి ఉన్నా అత్యవసర కాల్స్ (112) ఎల్లప్పుడూ పనిచేస్తాయి.
ఈ యాప్ ద్వారా విక్రేత నా సందేశాలు, కాల్స్, ఫోటోలు లేదా కాంటాక్ట్‌లను చూడలేరు.
EMI చెల్లించడానికి లేదా ఏదైనా అడగడానికి {{retailerName}} ను {{retailerPhone}} లో సంప్రదించండి.
నేను ఈ పాఠ్యాన్ని చదివాను, లేదా నాకు అర్థమయ్యే భాషలో చదివి వినిపించారు, మరియు నేను దీనికి అంగీకరిస్తున్నాను.`,

  tm: `EMI-யில் வாங்கிய போனைத் தொலைவிலிருந்து பூட்டுவதற்கான ஒப்புதல்

நான், {{customerName}}, இந்த போனை ({{productName}}) {{retailerName}} இடமிருந்து EMI-யில் வாங்குகிறேன்; இதற்கான கடனை {{orgName}} வழங்குகிறது. கடன் முழுமையாகச் செலுத்தப்படும் வரை, இந்த போனில் நிறுவப்பட்ட செயலி மூலம் {{retailerName}} பின்வருவனவற்றைச் செய்யலாம் என்று நான் ஒப்புக்கொள்கிறேன்:
• ஏதேனும் EMI நிலுவையில் இருக்கும்போது போனைப் பூட்டலாம் அல்லது அதன் சில வசதிகளை (கேமரா அல்லது சில செயலிகள் போன்றவை) கட்டுப்படுத்தலாம், மேலும் பூட்டுத் திரையில் நிலுவைத் தொகையையும் எப்படிச் செலுத்துவது என்பதையும் காட்டலாம்;
• போனுக்குக் கட்டண நினைவூட்டல்களை அனுப்பலாம்;
• நிலுவைத் தொகை செலுத்தப்பட்டதும் போனைத் திறக்கும்;
• போனின் இருப்பிடத்தைக் கண்டறியலாம்;
• SIM கார்டு எப்போது மாற்றப்பட்டது அல்லது அகற்றப்பட்டது என்பதைப் பார்க்கலாம்;
• கடன் முடிந்ததும் செயலியை நீக்கி போனை நிரந்தரமாக விடுவிக்கும்.
போன் பூட்டப்பட்டிருந்தாலும் அவசர அழைப்புகள் (112) எப்போதும் வேலை செய்யும்.
இந்தச் செயலி மூலம் விற்பனையாளர் என் செய்திகள், அழைப்புகள், புகைப்படங்கள் அல்லது தொடர்புகளைப் பார்க்க முடியாது.
EMI செலுத்த அல்லது எதையும் கேட்க {{retailerName}} அவர்களை {{retailerPhone}} என்ற எண்ணில் தொடர்பு கொள்ளவும்.
இந்த உரையை நான் படித்தேன், அல்லது எனக்குப் புரியும் மொழியில் படித்துக் காட்டப்பட்டது, மேலும் இதற்கு நான் ஒப்புக்கொள்கிறேன்.`,

  pp: `EMI 'ਤੇ ਖਰੀਦੇ ਫ਼ੋਨ ਨੂੰ ਦੂਰੋਂ ਲੌਕ ਕਰਨ ਦੀ ਸਹਿਮਤੀ

ਮੈਂ, {{customerName}}, ਇਹ ਫ਼ੋਨ ({{productName}}) {{retailerName}} ਤੋਂ EMI 'ਤੇ ਖਰੀਦ ਰਿਹਾ/ਰਹੀ ਹਾਂ, ਜਿਸ ਦਾ ਕਰਜ਼ਾ {{orgName}} ਦੇ ਰਿਹਾ ਹੈ। ਕਰਜ਼ਾ ਪੂਰਾ ਚੁਕਾਏ ਜਾਣ ਤੱਕ, ਮੈਂ ਸਹਿਮਤੀ ਦਿੰਦਾ/ਦਿੰਦੀ ਹਾਂ ਕਿ {{retailerName}} ਇਸ ਫ਼ੋਨ 'ਤੇ ਇੰਸਟਾਲ ਕੀਤੀ ਐਪ ਰਾਹੀਂ:
• ਕੋਈ EMI ਬਕਾਇਆ ਹੋਣ 'ਤੇ ਫ਼ੋਨ ਲੌਕ ਕਰ ਸਕਦਾ ਹੈ ਜਾਂ ਇਸ ਦੀਆਂ ਕੁਝ ਸਹੂਲਤਾਂ (ਜਿਵੇਂ ਕੈਮਰਾ ਜਾਂ ਕੁਝ ਐਪਾਂ) ਸੀਮਤ ਕਰ ਸਕਦਾ ਹੈ, ਅਤੇ ਲੌਕ ਸਕ੍ਰੀਨ 'ਤੇ ਬਕਾਇਆ ਰਕਮ ਅਤੇ ਭੁਗਤਾਨ ਦਾ ਤਰੀਕਾ ਦਿਖਾ ਸਕਦਾ ਹੈ;
• ਫ਼ੋਨ 'ਤੇ ਭੁਗਤਾਨ ਦੀਆਂ ਯਾਦ-ਦਹਾਨੀਆਂ ਭੇਜ ਸਕਦਾ ਹੈ;
• ਬਕਾਇਆ ਰਕਮ ਭਰਨ 'ਤੇ ਫ਼ੋਨ ਅਨਲੌਕ ਕਰੇਗਾ;
• ਫ਼ੋਨ ਦੀ ਲੋਕੇਸ਼ਨ ਲੱਭ ਸਕਦਾ ਹੈ;
• ਦੇਖ ਸਕਦਾ ਹੈ ਕਿ SIM ਕਾਰਡ ਕਦੋਂ ਬਦਲਿਆ ਜਾਂ ਕੱਢਿਆ ਗਿਆ;
• ਕਰਜ਼ਾ ਖ਼ਤਮ ਹੋਣ 'ਤੇ ਐਪ ਹਟਾ ਕੇ ਫ਼ੋਨ ਨੂੰ ਹਮੇਸ਼ਾ ਲਈ ਮੁਕਤ ਕਰੇਗਾ।
ਫ਼ੋਨ ਲੌਕ ਹੋਣ 'ਤੇ ਵੀ ਐਮਰਜੈਂਸੀ ਕਾਲਾਂ (112) ਹਮੇਸ਼ਾ ਕੰਮ ਕਰਦੀਆਂ ਹਨ।
ਇਸ ਐਪ ਰਾਹੀਂ ਵਿਕਰੇਤਾ ਮੇਰੇ ਸੁਨੇਹੇ, ਕਾਲਾਂ, ਫ਼ੋਟੋਆਂ ਜਾਂ ਸੰਪਰਕ ਨਹੀਂ ਦੇਖ ਸਕਦਾ।
EMI ਭਰਨ ਜਾਂ ਕੁਝ ਵੀ ਪੁੱਛਣ ਲਈ {{retailerName}} ਨਾਲ {{retailerPhone}} 'ਤੇ ਸੰਪਰਕ ਕਰੋ।
ਮੈਂ ਇਹ ਲਿਖਤ ਪੜ੍ਹ ਲਈ ਹੈ, ਜਾਂ ਮੈਨੂੰ ਮੇਰੀ ਸਮਝ ਦੀ ਭਾਸ਼ਾ ਵਿੱਚ ਪੜ੍ਹ ਕੇ ਸੁਣਾਈ ਗਈ ਹੈ, ਅਤੇ ਮੈਂ ਇਸ ਨਾਲ ਸਹਿਮਤ ਹਾਂ।`,
};

/**
 * A mobile number as a consent text writes it: an Indian E.164 number grouped as people read it
 * (+919876543210 → +91 98765 43210); any other value as given.
 */
export const formatMobileForText = formatIndianMobile;

/** The unfilled template of a language (for tests and documentation; renderConsentText fills it). */
export const consentTemplate = (language: TConsentLanguage): string => TEMPLATES[language];

/**
 * The consent text of CONSENT_TEXT_VERSION in `language`, with the customer, phone, retailer,
 * retailer's phone and lender filled in: the exact text shown to the customer and stored with
 * their consent. The first line is its title; lines starting "• " list what the retailer may do.
 */
export const renderConsentText = (language: TConsentLanguage, values: TConsentTextValues): string =>
  TEMPLATES[language].replace(/\{\{(\w+)\}\}(\.?)/g, (placeholder, name: string, stop: string) => {
    if (!(name in values)) return placeholder;
    const value = values[name as keyof TConsentTextValues];
    // A value ending a sentence with its own full stop ("… Pvt. Ltd.") takes no second one.
    return stop && value.endsWith('.') ? value : value + stop;
  });
