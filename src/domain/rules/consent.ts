/**
 * The telemedicine terms a patient accepts at sign-up. The version travels in the sign-up
 * metadata (`consentimento_telemedicina`) and the server records a consent only for the
 * version it knows (app_private.current_terms_version(); a database test pins the two).
 * Change both, and the terms page, when the terms change.
 */
export const TERMS_VERSION = '2026-11-25';

/** The sign-up metadata key the consent travels in. */
export const CONSENT_METADATA_KEY = 'consentimento_telemedicina';
