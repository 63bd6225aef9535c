import type {
  BackchannelLogoutUriProblemCode,
  ClientDisplayUriProblemCode,
  RedirectUriProblemCode,
} from '@foodshare/domain';
import type { Locale } from '../pages/locale.ts';

/** Every text of the OAuth client administration pages, in both languages. */
export interface AdminTexts {
  title: string;
  newClient: string;
  editClient: (clientId: string) => string;
  backToList: string;
  auditLog: string;
  yes: string;
  no: string;
  none: string;
  everybody: string;
  noClients: string;
  columns: {
    clientId: string;
    name: string;
    confidential: string;
    active: string;
    scopes: string;
    grantTypes: string;
    requiredRegions: string;
    updated: string;
  };
  updatedByAt: (who: string, when: string) => string;
  nobody: string;
  fields: {
    clientId: string;
    clientIdHint: string;
    name: string;
    nameHint: string;
    confidential: string;
    confidentialHint: string;
    redirectUris: string;
    redirectUrisHint: string;
    postLogoutRedirectUris: string;
    postLogoutRedirectUrisHint: string;
    backchannelLogoutUri: string;
    backchannelLogoutUriHint: string;
    logoUri: string;
    clientUri: string;
    policyUri: string;
    tosUri: string;
    /** One hint for the four fields a consent page shows. */
    displayUrisHint: string;
    consentPage: string;
    requirePushedAuthorizationRequests: string;
    requirePushedAuthorizationRequestsHint: string;
    requireDpop: string;
    requireDpopHint: string;
    scopes: string;
    grantTypes: string;
    requiredRegions: string;
    requiredRegionsHint: string;
  };
  scopeDescriptions: Record<string, string>;
  grantDescriptions: Record<string, string>;
  create: string;
  save: string;
  formHasErrors: string;
  errors: {
    clientIdRequired: string;
    clientIdFormat: string;
    clientIdTaken: string;
    nameRequired: string;
    nameTooLong: (max: number) => string;
    nameMarkup: string;
    redirectUrisRequired: string;
    tooManyRedirectUris: (max: number) => string;
    redirectUri: Record<RedirectUriProblemCode, string>;
    backchannelLogoutUri: Record<BackchannelLogoutUriProblemCode, string>;
    displayUri: Record<ClientDisplayUriProblemCode, string>;
    unknownScope: (scope: string) => string;
    openidRequired: string;
    unknownGrantType: (grant: string) => string;
    authorizationCodeRequired: string;
    unknownRegion: string;
  };
  notices: Record<string, string>;
  activation: {
    activeText: string;
    inactiveText: string;
    activate: string;
    deactivate: string;
  };
  secret: {
    title: string;
    regenerate: string;
    regenerateHint: (hours: number) => string;
    shownOnce: string;
    forClient: (clientId: string) => string;
    copyNow: string;
    previousValidUntil: (when: string) => string;
    /** The audit log's name of the previous secret's end. */
    previousValidUntilField: string;
    endPrevious: string;
    endPreviousHint: string;
    gone: string;
    publicHasNone: string;
  };
  deletion: {
    link: string;
    title: (clientId: string) => string;
    question: (name: string) => string;
    consequence: string;
    confirm: string;
    cancel: string;
  };
  audit: {
    title: string;
    forClient: string;
    when: string;
    who: string;
    client: string;
    action: string;
    changes: string;
    empty: string;
    commandLine: string;
    actions: Record<string, string>;
    fromTo: string;
  };
  forbidden: { title: string; text: string };
  notFound: { title: string; text: string };
  formExpired: { title: string; text: string };
}

const de: AdminTexts = {
  title: 'OAuth-Clients',
  newClient: 'Neuer Client',
  editClient: (clientId) => `Client ${clientId} bearbeiten`,
  backToList: 'Zurück zur Übersicht',
  auditLog: 'Änderungsprotokoll',
  yes: 'ja',
  no: 'nein',
  none: '–',
  everybody: 'alle Nutzer*innen',
  noClients: 'Es sind noch keine Clients registriert.',
  columns: {
    clientId: 'Client-ID',
    name: 'Name',
    confidential: 'Vertraulich',
    active: 'Aktiv',
    scopes: 'Scopes',
    grantTypes: 'Grant-Typen',
    requiredRegions: 'Erforderliche Bezirke',
    updated: 'Zuletzt geändert',
  },
  updatedByAt: (who, when) => `${when} von ${who}`,
  nobody: 'Kommandozeile',
  fields: {
    clientId: 'Client-ID',
    clientIdHint:
      'Höchstens 100 Zeichen aus Buchstaben, Ziffern und . _ ~ -; später nicht änderbar.',
    name: 'Name',
    nameHint: 'Wird Nutzer*innen auf der Zustimmungsseite angezeigt.',
    confidential: 'Vertraulicher Client',
    confidentialHint:
      'Serveranwendungen sind vertraulich und erhalten ein Geheimnis. Browser- und Mobil-Apps sind öffentlich und nutzen PKCE.',
    redirectUris: 'Redirect-URIs',
    redirectUrisHint:
      'Eine exakte Adresse pro Zeile: https; http nur auf localhost, 127.0.0.1 oder [::1] (dort passt jeder Port, RFC 8252); für öffentliche Clients (native Apps) auch ein eigenes Schema der App als umgekehrte Domain, z. B. com.example.app:/callback; ohne Fragment (#) und ohne Platzhalter (*).',
    postLogoutRedirectUris: 'Post-Logout-Redirect-URIs',
    postLogoutRedirectUrisHint:
      'Wohin die Anwendung Nutzer*innen nach dem Abmelden zurückschicken darf (OpenID Connect RP-Initiated Logout), exakt und nach denselben Regeln wie oben. Leer: Nach dem Abmelden erscheint unsere eigene Seite.',
    backchannelLogoutUri: 'Back-Channel-Logout-URI',
    backchannelLogoutUriHint:
      'Wohin unser Server beim Abmelden oder Widerrufen ein signiertes Logout-Token schickt (OpenID Connect Back-Channel Logout): https auf einen öffentlichen Host, ohne Fragment (#); keine private, Loopback- oder Link-Local-Adresse, kein localhost und kein interner Name. Leer: keines.',
    logoUri: 'Logo-URI',
    clientUri: 'Website-URI',
    policyUri: 'Datenschutzerklärung-URI',
    tosUri: 'Nutzungsbedingungen-URI',
    consentPage: 'Angaben für die Zustimmungsseite',
    displayUrisHint:
      'Werden auf der Zustimmungsseite gezeigt: das Logo als Bild, die anderen als Links. Nur https; unser Server ruft sie nie ab. Leer: keine.',
    requirePushedAuthorizationRequests: 'Nur Pushed Authorization Requests (PAR)',
    requirePushedAuthorizationRequestsHint:
      'Die Anwendung muss ihre Autorisierungsanfragen zuerst an /oauth/par schicken (RFC 9126); direkte Anfragen an /oauth/authorize werden abgelehnt.',
    requireDpop: 'Nur Token-Anfragen mit DPoP-Nachweis',
    requireDpopHint:
      'Die Anwendung muss jede Token-Anfrage mit einem DPoP-Nachweis ihres Schlüssels senden (RFC 9449); ihre Tokens sind dann an diesen Schlüssel gebunden. Anfragen ohne Nachweis werden abgelehnt.',
    scopes: 'Scopes',
    grantTypes: 'Grant-Typen',
    requiredRegions: 'Erforderliche Bezirke',
    requiredRegionsHint:
      'Nur Mitglieder mindestens eines gewählten Bezirks dürfen den Client nutzen. Keine Auswahl: alle Nutzer*innen.',
  },
  scopeDescriptions: {
    openid: 'openid – Nutzer-ID (immer erforderlich)',
    profile: 'profile – Name, Profilbild, Sprache',
    email: 'email – E-Mail-Adresse',
    regions: 'regions – Bezirke und Botschafter*innen-Rollen',
    api: 'api – die REST-API im Namen der Nutzer*in aufrufen (lesen und schreiben, mit ihren Rechten)',
  },
  grantDescriptions: {
    authorization_code: 'authorization_code (immer erforderlich)',
    refresh_token: 'refresh_token – Refresh-Tokens ausstellen',
    'urn:ietf:params:oauth:grant-type:device_code':
      'device_code – Anmeldung an Geräten ohne Tastatur per Code (RFC 8628)',
  },
  create: 'Client anlegen',
  save: 'Änderungen speichern',
  formHasErrors: 'Bitte korrigiere die markierten Angaben.',
  errors: {
    clientIdRequired: 'Bitte gib eine Client-ID an.',
    clientIdFormat:
      'Die Client-ID darf höchstens 100 Zeichen aus Buchstaben, Ziffern und . _ ~ - enthalten.',
    clientIdTaken: 'Diese Client-ID ist schon vergeben.',
    nameRequired: 'Bitte gib einen Namen an.',
    nameTooLong: (max) => `Der Name darf höchstens ${max} Zeichen lang sein.`,
    nameMarkup: 'Der Name darf weder < noch > enthalten.',
    redirectUrisRequired: 'Bitte gib mindestens eine Redirect-URI an.',
    tooManyRedirectUris: (max) => `Höchstens ${max} Redirect-URIs sind erlaubt.`,
    redirectUri: {
      LENGTH: 'ist zu lang',
      WHITE_SPACE: 'enthält Leer- oder Steuerzeichen',
      WILDCARD: 'enthält einen Platzhalter (*)',
      FRAGMENT: 'enthält ein Fragment (#)',
      NOT_ABSOLUTE: 'ist keine absolute URL',
      CREDENTIALS: 'enthält Zugangsdaten',
      NO_HOST: 'nennt keinen Host',
      NOT_HTTPS: 'muss https verwenden (http nur auf localhost, 127.0.0.1 oder [::1])',
      UNSAFE_SCHEME:
        'verwendet ein Schema, das der Browser selbst ausführt oder liest (javascript:, data:, file:)',
      SCHEME_NOT_REVERSE_DOMAIN:
        'muss https verwenden, http auf localhost, 127.0.0.1 oder [::1], oder ein eigenes Schema der App, das eine umgekehrte Domain ist (com.example.app:/callback)',
      PRIVATE_SCHEME_CONFIDENTIAL:
        'verwendet ein eigenes Schema einer App; das darf nur ein öffentlicher Client (eine native App) registrieren',
    },
    backchannelLogoutUri: {
      LENGTH: 'ist zu lang',
      WHITE_SPACE: 'enthält Leer- oder Steuerzeichen',
      FRAGMENT: 'enthält ein Fragment (#)',
      NOT_ABSOLUTE: 'ist keine absolute URL',
      CREDENTIALS: 'enthält Zugangsdaten',
      NOT_HTTPS: 'muss https verwenden',
      PRIVATE_ADDRESS:
        'nennt eine private, Loopback-, Link-Local- oder andere nicht öffentliche Adresse',
      INTERNAL_HOST: 'nennt localhost, einen Namen ohne Punkt oder einen internen Namen',
    },
    displayUri: {
      LENGTH: 'ist zu lang',
      WHITE_SPACE: 'enthält Leer- oder Steuerzeichen',
      MARKUP: 'enthält < > " \' oder `',
      NOT_ABSOLUTE: 'ist keine absolute URL mit Host',
      CREDENTIALS: 'enthält Zugangsdaten',
      NOT_HTTPS: 'muss https verwenden',
    },
    unknownScope: (scope) => `Unbekannter Scope: ${scope}`,
    openidRequired: 'Der Scope openid ist immer erforderlich.',
    unknownGrantType: (grant) => `Unbekannter Grant-Typ: ${grant}`,
    authorizationCodeRequired: 'Der Grant-Typ authorization_code ist immer erforderlich.',
    unknownRegion: 'Ein gewählter Bezirk existiert nicht (mehr).',
  },
  notices: {
    created: 'Der Client wurde angelegt.',
    updated: 'Die Änderungen wurden gespeichert.',
    unchanged: 'Es gab nichts zu ändern.',
    activated: 'Der Client wurde aktiviert.',
    deactivated: 'Der Client wurde deaktiviert.',
    deleted: 'Der Client wurde gelöscht.',
    previousSecretEnded: 'Das vorherige Geheimnis gilt ab sofort nicht mehr.',
  },
  activation: {
    activeText: 'Der Client ist aktiv.',
    inactiveText: 'Der Client ist deaktiviert: Anmeldungen und Token-Anfragen werden abgelehnt.',
    activate: 'Aktivieren',
    deactivate: 'Deaktivieren',
  },
  secret: {
    title: 'Client-Geheimnis',
    regenerate: 'Neues Geheimnis erzeugen',
    regenerateHint: (hours) =>
      `Das bisherige Geheimnis bleibt danach noch ${hours} Stunden gültig, damit die Anwendung umgestellt werden kann.`,
    shownOnce:
      'Das Geheimnis wird nur dieses eine Mal angezeigt und nur als Hash gespeichert. Kopiere es jetzt.',
    forClient: (clientId) => `Geheimnis des Clients ${clientId}`,
    copyNow: 'Ich habe das Geheimnis gespeichert',
    previousValidUntil: (when) => `Das vorherige Geheimnis bleibt bis ${when} gültig.`,
    previousValidUntilField: 'Vorheriges Geheimnis gültig bis',
    endPrevious: 'Vorheriges Geheimnis jetzt beenden',
    endPreviousHint:
      'Falls das vorherige Geheimnis in falsche Hände geraten sein kann, beende es jetzt: danach gilt nur noch das neue.',
    gone: 'Das Geheimnis wurde bereits angezeigt und kann nicht noch einmal angezeigt werden. Erzeuge bei Bedarf ein neues.',
    publicHasNone: 'Öffentliche Clients haben kein Geheimnis; sie nutzen PKCE.',
  },
  deletion: {
    link: 'Client löschen',
    title: (clientId) => `Client ${clientId} löschen?`,
    question: (name) => `Soll der Client „${name}“ wirklich gelöscht werden?`,
    consequence:
      'Die Anwendung kann danach keine Anmeldungen und Token-Anfragen mehr stellen. Das lässt sich nicht rückgängig machen; das Änderungsprotokoll bleibt erhalten.',
    confirm: 'Endgültig löschen',
    cancel: 'Abbrechen',
  },
  audit: {
    title: 'Änderungsprotokoll',
    forClient: 'Änderungen an diesem Client',
    when: 'Wann',
    who: 'Wer',
    client: 'Client',
    action: 'Aktion',
    changes: 'Änderungen',
    empty: 'Keine Einträge.',
    commandLine: 'Kommandozeile',
    actions: {
      create: 'angelegt',
      update: 'geändert',
      activate: 'aktiviert',
      deactivate: 'deaktiviert',
      delete: 'gelöscht',
      regenerate_secret: 'Geheimnis neu erzeugt',
      end_previous_secret: 'vorheriges Geheimnis beendet',
    },
    fromTo: '→',
  },
  forbidden: {
    title: 'Kein Zugriff',
    text: 'OAuth-Clients verwalten nur Mitglieder der Organisation in der Arbeitsgruppe OAuth-Client-Verwaltung.',
  },
  notFound: { title: 'Nicht gefunden', text: 'Diesen Client gibt es nicht (mehr).' },
  formExpired: {
    title: 'Formular abgelaufen',
    text: 'Das Formular ist abgelaufen oder kam nicht von dieser Seite. Es wurde nichts geändert. Lade die Seite neu und versuche es noch einmal.',
  },
};

const en: AdminTexts = {
  title: 'OAuth clients',
  newClient: 'New client',
  editClient: (clientId) => `Edit client ${clientId}`,
  backToList: 'Back to the list',
  auditLog: 'Audit log',
  yes: 'yes',
  no: 'no',
  none: '–',
  everybody: 'every user',
  noClients: 'No clients are registered yet.',
  columns: {
    clientId: 'Client ID',
    name: 'Name',
    confidential: 'Confidential',
    active: 'Active',
    scopes: 'Scopes',
    grantTypes: 'Grant types',
    requiredRegions: 'Required regions',
    updated: 'Last changed',
  },
  updatedByAt: (who, when) => `${when} by ${who}`,
  nobody: 'command line',
  fields: {
    clientId: 'Client ID',
    clientIdHint: 'Up to 100 letters, digits and . _ ~ -; cannot be changed later.',
    name: 'Name',
    nameHint: 'Shown to users on the consent screen.',
    confidential: 'Confidential client',
    confidentialHint:
      'Server applications are confidential and get a secret. Browser and mobile applications are public and use PKCE.',
    redirectUris: 'Redirect URIs',
    redirectUrisHint:
      "One exact address per line: https; http only on localhost, 127.0.0.1 or [::1] (any port matches there, RFC 8252); for public clients (native apps) also an app's own scheme that is a domain in reverse, e.g. com.example.app:/callback; no fragment (#), no wildcard (*).",
    postLogoutRedirectUris: 'Post-logout redirect URIs',
    postLogoutRedirectUrisHint:
      'Where the application may send people back after signing out (OpenID Connect RP-Initiated Logout), exact and by the same rules as above. Empty: our own page is shown after signing out.',
    backchannelLogoutUri: 'Back-channel logout URI',
    backchannelLogoutUriHint:
      'Where our server sends a signed logout token when someone signs out or revokes the application (OpenID Connect Back-Channel Logout): https to a public host, without a fragment (#); no private, loopback or link-local address, no localhost and no internal name. Empty: none.',
    logoUri: 'Logo URI',
    clientUri: 'Home page URI',
    policyUri: 'Privacy policy URI',
    tosUri: 'Terms of service URI',
    consentPage: 'Shown on the consent page',
    displayUrisHint:
      'Shown on the consent page: the logo as an image, the others as links. https only; our server never fetches them. Empty: none.',
    requirePushedAuthorizationRequests: 'Pushed authorization requests (PAR) only',
    requirePushedAuthorizationRequestsHint:
      'The application must send its authorization requests to /oauth/par first (RFC 9126); direct requests to /oauth/authorize are refused.',
    requireDpop: 'Token requests with a DPoP proof only',
    requireDpopHint:
      'The application must send every token request with a DPoP proof of its key (RFC 9449); its tokens are then bound to that key. Requests without a proof are refused.',
    scopes: 'Scopes',
    grantTypes: 'Grant types',
    requiredRegions: 'Required regions',
    requiredRegionsHint:
      'Only members of at least one chosen region may use the client. None chosen: every user.',
  },
  scopeDescriptions: {
    openid: 'openid – user id (always required)',
    profile: 'profile – name, picture, language',
    email: 'email – email address',
    regions: 'regions – regions and ambassador roles',
    api: 'api – call the REST API on the user’s behalf (read and write, with their permissions)',
  },
  grantDescriptions: {
    authorization_code: 'authorization_code (always required)',
    refresh_token: 'refresh_token – issue refresh tokens',
    'urn:ietf:params:oauth:grant-type:device_code':
      'device_code – sign in on devices without a keyboard by a code (RFC 8628)',
  },
  create: 'Create client',
  save: 'Save changes',
  formHasErrors: 'Please correct the marked entries.',
  errors: {
    clientIdRequired: 'Please enter a client ID.',
    clientIdFormat: 'The client ID may have up to 100 letters, digits and . _ ~ -.',
    clientIdTaken: 'This client ID is already taken.',
    nameRequired: 'Please enter a name.',
    nameTooLong: (max) => `The name may have at most ${max} characters.`,
    nameMarkup: 'The name must not contain < or >.',
    redirectUrisRequired: 'Please enter at least one redirect URI.',
    tooManyRedirectUris: (max) => `At most ${max} redirect URIs are allowed.`,
    redirectUri: {
      LENGTH: 'is too long',
      WHITE_SPACE: 'contains white space or control characters',
      WILDCARD: 'contains a wildcard (*)',
      FRAGMENT: 'contains a fragment (#)',
      NOT_ABSOLUTE: 'is not an absolute URL',
      CREDENTIALS: 'contains credentials',
      NO_HOST: 'names no host',
      NOT_HTTPS: 'must use https (http only on localhost, 127.0.0.1 or [::1])',
      UNSAFE_SCHEME: 'uses a scheme the browser runs or reads itself (javascript:, data:, file:)',
      SCHEME_NOT_REVERSE_DOMAIN:
        "must use https, http on localhost, 127.0.0.1 or [::1], or an app's own scheme that is a domain in reverse (com.example.app:/callback)",
      PRIVATE_SCHEME_CONFIDENTIAL:
        "uses an app's own scheme, which only a public client (a native app) may register",
    },
    backchannelLogoutUri: {
      LENGTH: 'is too long',
      WHITE_SPACE: 'contains white space or control characters',
      FRAGMENT: 'contains a fragment (#)',
      NOT_ABSOLUTE: 'is not an absolute URL',
      CREDENTIALS: 'contains credentials',
      NOT_HTTPS: 'must use https',
      PRIVATE_ADDRESS: 'names a private, loopback, link-local or other non-public address',
      INTERNAL_HOST: 'names localhost, a name without a dot, or an internal name',
    },
    displayUri: {
      LENGTH: 'is too long',
      WHITE_SPACE: 'contains white space or control characters',
      MARKUP: 'contains < > " \' or `',
      NOT_ABSOLUTE: 'is not an absolute URL with a host',
      CREDENTIALS: 'contains credentials',
      NOT_HTTPS: 'must use https',
    },
    unknownScope: (scope) => `Unknown scope: ${scope}`,
    openidRequired: 'The scope openid is always required.',
    unknownGrantType: (grant) => `Unknown grant type: ${grant}`,
    authorizationCodeRequired: 'The grant type authorization_code is always required.',
    unknownRegion: 'A chosen region does not exist (any more).',
  },
  notices: {
    created: 'The client was created.',
    updated: 'The changes were saved.',
    unchanged: 'There was nothing to change.',
    activated: 'The client was activated.',
    deactivated: 'The client was deactivated.',
    deleted: 'The client was deleted.',
    previousSecretEnded: 'The previous secret no longer works.',
  },
  activation: {
    activeText: 'The client is active.',
    inactiveText: 'The client is deactivated: sign-ins and token requests are refused.',
    activate: 'Activate',
    deactivate: 'Deactivate',
  },
  secret: {
    title: 'Client secret',
    regenerate: 'Generate a new secret',
    regenerateHint: (hours) =>
      `The current secret then stays valid for ${hours} more hours, so the application can be switched over.`,
    shownOnce: 'The secret is shown this once and stored only as a hash. Copy it now.',
    forClient: (clientId) => `Secret of client ${clientId}`,
    copyNow: 'I have stored the secret',
    previousValidUntil: (when) => `The previous secret stays valid until ${when}.`,
    previousValidUntilField: 'Previous secret valid until',
    endPrevious: 'End the previous secret now',
    endPreviousHint:
      'If the previous secret may have leaked, end it now: from then on only the new one works.',
    gone: 'The secret was already shown and cannot be shown again. Generate a new one if needed.',
    publicHasNone: 'Public clients have no secret; they use PKCE.',
  },
  deletion: {
    link: 'Delete client',
    title: (clientId) => `Delete client ${clientId}?`,
    question: (name) => `Do you really want to delete the client “${name}”?`,
    consequence:
      'The application can then no longer sign users in or request tokens. This cannot be undone; the audit log is kept.',
    confirm: 'Delete for good',
    cancel: 'Cancel',
  },
  audit: {
    title: 'Audit log',
    forClient: 'Changes to this client',
    when: 'When',
    who: 'Who',
    client: 'Client',
    action: 'Action',
    changes: 'Changes',
    empty: 'No entries.',
    commandLine: 'command line',
    actions: {
      create: 'created',
      update: 'changed',
      activate: 'activated',
      deactivate: 'deactivated',
      delete: 'deleted',
      regenerate_secret: 'secret regenerated',
      end_previous_secret: 'previous secret ended',
    },
    fromTo: '→',
  },
  forbidden: {
    title: 'Access denied',
    text: 'Only organisation members in the OAuth client administration group manage OAuth clients.',
  },
  notFound: { title: 'Not found', text: 'This client does not exist (any more).' },
  formExpired: {
    title: 'Form expired',
    text: 'The form has expired or did not come from this page. Nothing was changed. Reload the page and try again.',
  },
};

const TEXTS: Record<Locale, AdminTexts> = { de, en };

export function adminTextsFor(locale: Locale): AdminTexts {
  return TEXTS[locale];
}
