/**
 * The brand, in one place: the client's site config, mails and PDFs all read it.
 * Rename the service here.
 */
export const BRAND = {
  name: 'Poshan',
  tagline: 'Personalised diet plans from certified dietitians',
  supportEmail: 'care@poshan.example',
  /** WhatsApp number in international format, digits only. */
  whatsappNumber: '919876543210',
  phoneDisplay: '+91 98765 43210',
  founderName: 'Dr. Meera Iyer',
  adminDisplayName: 'Poshan Dietitians',
  /** The brand colour (browser toolbar, installed app's title bar and icon background) and the splash screen's background. */
  themeColor: '#0f766e',
  backgroundColor: '#ffffff',
} as const;
