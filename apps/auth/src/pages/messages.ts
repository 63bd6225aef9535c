import { html, type SafeHtml } from './html.ts';
import type { Locale } from './locale.ts';
import { CONNECTED_APPS_PATH } from './page-paths.ts';

/** Every text of the login, consent, connected-apps, logout and error pages, in both languages. */
export interface Messages {
  /**
   * The scopes of docs/spec.md §2.13 in plain words, what the application will learn, and
   * offline_access (docs/oauth.md §3.8), for how long.
   */
  scopes: Record<string, string>;
  invalidRedirectUri: { title: string; text: string };
  /** "User not in required regions" (docs/spec.md §7.2): the client admits its regions' members. */
  notInRegions: {
    title: string;
    text: (clientName: string) => SafeHtml;
    back: (clientName: string) => SafeHtml;
  };
  expiredRequest: { title: string; text: string };
  formExpired: string;
  tooManyRequests: { title: string; text: (seconds: number) => string };
  technicalDetail: string;
  /** The frame of every page: who runs it, and where the password belongs. */
  frame: { footer: (platformName: string, host: string) => SafeHtml };
  login: {
    title: string;
    continueTo: (clientName: string) => SafeHtml;
    email: string;
    password: string;
    rememberMe: string;
    submit: string;
    invalidCredentials: string;
    throttled: (seconds: number) => string;
    notActivated: string;
    /** Shown only when PASSWORD_RESET_URL is set. */
    forgotPassword: string;
  };
  consent: {
    title: string;
    question: (clientName: string, platformName: string) => SafeHtml;
    remember: string;
    allow: string;
    deny: string;
    /** Who is signed in, so nobody allows access to someone else's account by mistake. */
    signedInAs: (name: string, email: string) => SafeHtml;
    notYou: string;
    /** Where the browser goes after the answer: the host of the redirect URI. */
    destination: (host: string) => SafeHtml;
    logoAlt: (clientName: string) => string;
    homePage: string;
    privacyPolicy: string;
    terms: string;
    noPrivacyPolicy: (clientName: string) => SafeHtml;
    /** What "remember this choice" means and where it is undone. */
    rememberHint: (clientName: string) => SafeHtml;
  };
  connectedApps: {
    title: string;
    intro: string;
    empty: string;
    grantedAt: string;
    lastUsedAt: string;
    /** Shown for an app whose consent was remembered: it will not ask again. */
    remembered: string;
    revoke: string;
    logout: string;
  };
  /** RFC 8628: the verification page where a device's user code is entered, and its answers. */
  device: {
    title: string;
    intro: string;
    code: string;
    submit: string;
    unknown: { title: string; text: string };
    approved: { title: string; text: (clientName: string) => SafeHtml };
    denied: { title: string; text: string };
    /** On the consent page, in place of where the browser goes. */
    destination: string;
  };
  /** OpenID Connect RP-Initiated Logout 1.0: the end_session_endpoint's pages. */
  logout: {
    title: string;
    question: (platformName: string) => string;
    /** The client that asks, when the request names one. */
    askedBy: (clientName: string) => SafeHtml;
    confirm: string;
    cancel: string;
    done: string;
    doneText: string;
    invalid: { title: string; text: string };
  };
}

const de: Messages = {
  scopes: {
    openid: 'Wer du bist: deine Nutzer-ID und deinen Benutzernamen',
    profile: 'Deinen Namen, dein Profilbild und deine Sprache',
    email: 'Deine E-Mail-Adresse',
    regions: 'Die Bezirke, in denen du Mitglied bist, und die, die du als Botschafter*in betreust',
    api: 'In deinem Namen auf der Plattform lesen und handeln, mit deinen Rechten: Nachrichten, Bezirke, Betriebe und mehr',
    offline_access:
      'Zugriff auf diese Angaben auch nach deiner Abmeldung, bis du ihn unter „Verbundene Anwendungen“ widerrufst',
  },
  invalidRedirectUri: {
    title: 'Anmeldung nicht möglich',
    text: 'Die Anwendung, von der du kommst, ist unbekannt oder hat eine nicht registrierte Rücksprungadresse angegeben. Du wirst deshalb nicht zu ihr zurückgeleitet.',
  },
  notInRegions: {
    title: 'Nicht in den erforderlichen Bezirken',
    text: (name) =>
      html`<strong>${name}</strong> steht nur Mitgliedern bestimmter Bezirke offen, und du bist in
        keinem davon Mitglied. Deshalb wirst du nicht angemeldet.`,
    back: (name) => html`Zurück zu ${name}`,
  },
  expiredRequest: {
    title: 'Anfrage abgelaufen',
    text: 'Diese Anmeldeanfrage ist abgelaufen oder wurde schon abgeschlossen. Kehre zur Anwendung zurück und versuche es noch einmal.',
  },
  formExpired: 'Das Formular ist abgelaufen. Bitte versuche es noch einmal.',
  tooManyRequests: {
    title: 'Zu viele Anfragen',
    text: (seconds) => `Zu viele Anfragen. Bitte versuche es in ${seconds} Sekunden noch einmal.`,
  },
  technicalDetail: 'Technische Angabe',
  frame: {
    footer: (platform, host) =>
      html`Anmeldedienst von ${platform}. Gib dein Passwort nur auf <strong>${host}</strong> ein.`,
  },
  login: {
    title: 'Anmelden',
    continueTo: (name) => html`Melde dich an, um mit <strong>${name}</strong> fortzufahren.`,
    email: 'E-Mail-Adresse',
    password: 'Passwort',
    rememberMe: 'Angemeldet bleiben',
    submit: 'Anmelden',
    invalidCredentials: 'E-Mail-Adresse oder Passwort ist falsch.',
    throttled: (seconds) =>
      `Zu viele Anmeldeversuche. Bitte versuche es in ${seconds} Sekunden noch einmal. Zum Schutz des Kontos ist die Anmeldung bis dahin gesperrt.`,
    notActivated:
      'Dieses Konto ist nicht aktiv: Es wurde noch nicht aktiviert oder wurde deaktiviert. Folge dem Link in deiner Aktivierungs-E-Mail oder wende dich an den Support.',
    forgotPassword: 'Passwort vergessen?',
  },
  consent: {
    title: 'Zugriff erlauben?',
    question: (name, platform) =>
      html`<strong>${name}</strong> möchte auf Folgendes aus deinem Konto bei ${platform} zugreifen:`,
    remember: 'Diese Entscheidung merken',
    allow: 'Erlauben',
    deny: 'Ablehnen',
    signedInAs: (name, email) => html`Angemeldet als <strong>${name}</strong> (${email})`,
    notYou: 'Nicht du? Als jemand anderes anmelden',
    destination: (host) =>
      html`Nach deiner Antwort geht es weiter zu <span class="destination">${host}</span>.`,
    logoAlt: (name) => `Logo von ${name}`,
    homePage: 'Website der Anwendung',
    privacyPolicy: 'Datenschutzerklärung',
    terms: 'Nutzungsbedingungen',
    noPrivacyPolicy: (name) =>
      html`<strong>${name}</strong> hat keine Datenschutzerklärung angegeben.`,
    rememberHint: (name) =>
      html`Merkst du dir die Entscheidung, fragt ${name} beim nächsten Mal nicht erneut. Du kannst
        den Zugriff jederzeit unter
        <a href="${CONNECTED_APPS_PATH}">Verbundene Anwendungen</a> widerrufen.`,
  },
  connectedApps: {
    title: 'Verbundene Anwendungen',
    intro:
      'Diesen Anwendungen hast du Zugriff erlaubt. Widerrufst du ihn, werden ihre Zugangsschlüssel sofort ungültig und sie fragen beim nächsten Mal wieder nach.',
    empty: 'Keine Anwendung hat Zugriff auf dein Konto.',
    grantedAt: 'Erlaubt am',
    lastUsedAt: 'Zuletzt genutzt am',
    remembered: 'Deine Entscheidung ist gespeichert: Die Anwendung fragt nicht erneut.',
    revoke: 'Zugriff widerrufen',
    logout: 'Abmelden',
  },
  device: {
    title: 'Gerät verbinden',
    intro: 'Gib den Code ein, den dein Gerät anzeigt.',
    code: 'Code',
    submit: 'Weiter',
    unknown: {
      title: 'Code ungültig',
      text: 'Dieser Code ist unbekannt, abgelaufen oder wurde schon verwendet. Starte die Anmeldung an deinem Gerät neu, um einen neuen Code zu erhalten.',
    },
    approved: {
      title: 'Gerät verbunden',
      text: (name) =>
        html`Du hast <strong>${name}</strong> den Zugriff erlaubt. Kehre zu deinem Gerät zurück: Es
          meldet sich von selbst an.`,
    },
    denied: {
      title: 'Gerät nicht verbunden',
      text: 'Das Gerät erhält keinen Zugriff. Du kannst diese Seite schließen.',
    },
    destination:
      'Nach deiner Antwort meldet sich das Gerät an, an dem du den Code eingegeben hast.',
  },
  logout: {
    title: 'Abmelden?',
    question: (platform) => `Möchtest du dich bei ${platform} abmelden?`,
    askedBy: (name) => html`Die Anwendung <strong>${name}</strong> bittet darum.`,
    confirm: 'Abmelden',
    cancel: 'Angemeldet bleiben',
    done: 'Abgemeldet',
    doneText: 'Du bist jetzt abgemeldet.',
    invalid: {
      title: 'Abmeldung nicht möglich',
      text: 'Die Abmeldeanfrage der Anwendung, von der du kommst, ist ungültig. Du wirst deshalb nicht zu ihr zurückgeleitet und bleibst angemeldet.',
    },
  },
};

const en: Messages = {
  scopes: {
    openid: 'Who you are: your user id and user name',
    profile: 'Your name, profile picture and language',
    email: 'Your email address',
    regions: 'The regions you are a member of, and those you look after as an ambassador',
    api: 'Read and act on the platform in your name, with your permissions: messages, regions, stores and more',
    offline_access:
      'Access to this information even after you sign out, until you revoke it under “Connected apps”',
  },
  invalidRedirectUri: {
    title: 'Sign-in not possible',
    text: 'The application you came from is unknown or named a redirect address it has not registered, so you are not sent back to it.',
  },
  notInRegions: {
    title: 'User not in required regions',
    text: (name) =>
      html`<strong>${name}</strong> is open only to members of certain regions, and you are not a
        member of any of them, so you are not signed in.`,
    back: (name) => html`Back to ${name}`,
  },
  expiredRequest: {
    title: 'Request expired',
    text: 'This sign-in request has expired or was already completed. Go back to the application and try again.',
  },
  formExpired: 'The form has expired. Please try again.',
  tooManyRequests: {
    title: 'Too many requests',
    text: (seconds) => `Too many requests. Please try again in ${seconds} seconds.`,
  },
  technicalDetail: 'Technical detail',
  frame: {
    footer: (platform, host) =>
      html`Sign-in service of ${platform}. Enter your password only at <strong>${host}</strong>.`,
  },
  login: {
    title: 'Sign in',
    continueTo: (name) => html`Sign in to continue to <strong>${name}</strong>.`,
    email: 'Email address',
    password: 'Password',
    rememberMe: 'Keep me signed in',
    submit: 'Sign in',
    invalidCredentials: 'Email address or password is wrong.',
    throttled: (seconds) =>
      `Too many sign-in attempts. Please try again in ${seconds} seconds. Signing in is paused until then to protect the account.`,
    notActivated:
      'This account is not active: it has not been activated yet, or it was deactivated. Follow the link in your activation email, or contact support.',
    forgotPassword: 'Forgot your password?',
  },
  consent: {
    title: 'Allow access?',
    question: (name, platform) =>
      html`<strong>${name}</strong> would like to access the following from your ${platform}
        account:`,
    remember: 'Remember this choice',
    allow: 'Allow',
    deny: 'Deny',
    signedInAs: (name, email) => html`Signed in as <strong>${name}</strong> (${email})`,
    notYou: 'Not you? Sign in as someone else',
    destination: (host) =>
      html`After you answer, you continue to <span class="destination">${host}</span>.`,
    logoAlt: (name) => `Logo of ${name}`,
    homePage: "The app's website",
    privacyPolicy: 'Privacy policy',
    terms: 'Terms of service',
    noPrivacyPolicy: (name) => html`<strong>${name}</strong> has not registered a privacy policy.`,
    rememberHint: (name) =>
      html`If you remember this choice, ${name} will not ask again next time. You can revoke its
        access at any time under <a href="${CONNECTED_APPS_PATH}">Connected apps</a>.`,
  },
  connectedApps: {
    title: 'Connected apps',
    intro:
      'You have allowed these applications access. If you revoke it, their access keys stop working at once and they ask again next time.',
    empty: 'No application has access to your account.',
    grantedAt: 'Allowed on',
    lastUsedAt: 'Last used on',
    remembered: 'Your choice is remembered: the application does not ask again.',
    revoke: 'Revoke access',
    logout: 'Sign out',
  },
  device: {
    title: 'Connect a device',
    intro: 'Enter the code your device shows.',
    code: 'Code',
    submit: 'Continue',
    unknown: {
      title: 'Code not valid',
      text: 'This code is unknown, has expired or was already used. Start the sign-in on your device again to get a new code.',
    },
    approved: {
      title: 'Device connected',
      text: (name) =>
        html`You have allowed <strong>${name}</strong> access. Go back to your device: it signs in
          by itself.`,
    },
    denied: {
      title: 'Device not connected',
      text: 'The device gets no access. You can close this page.',
    },
    destination: 'After you answer, the device you entered the code for signs in.',
  },
  logout: {
    title: 'Sign out?',
    question: (platform) => `Do you want to sign out of ${platform}?`,
    askedBy: (name) => html`The application <strong>${name}</strong> asks you to.`,
    confirm: 'Sign out',
    cancel: 'Stay signed in',
    done: 'Signed out',
    doneText: 'You are now signed out.',
    invalid: {
      title: 'Sign-out not possible',
      text: 'The sign-out request of the application you came from is invalid, so you are not sent back to it and stay signed in.',
    },
  },
};

const MESSAGES: Record<Locale, Messages> = { de, en };

export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale];
}

/** A scope in plain words; an unexpected one by its name rather than not at all. */
export function describeScope(messages: Messages, scope: string): string {
  return messages.scopes[scope] ?? scope;
}
