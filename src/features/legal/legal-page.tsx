import { css } from 'styled-system/css';
import { Alert } from '@/ui/alert.tsx';
import { Container } from '@/ui/container.tsx';
import {
  LEGAL_DOCUMENTS,
  TEMPLATE_NOTICE,
  TEMPLATE_NOTICE_TITLE,
  type LegalDocumentKey,
} from './legal-texts.ts';

/** One of the footer's legal pages, marked as a template for the clinic to review. */
export function LegalPage({ document: key }: { document: LegalDocumentKey }) {
  const doc = LEGAL_DOCUMENTS[key];
  return (
    <Container className={css({ py: { base: '8', md: '12' }, maxW: '3xl' })}>
      <article className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
        <header className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>
            {doc.title}
          </h1>
          <p className={css({ color: 'fg.muted' })}>{doc.intro}</p>
        </header>
        <Alert tone="amber" title={TEMPLATE_NOTICE_TITLE}>
          {TEMPLATE_NOTICE}
        </Alert>
        {doc.sections.map((section) => (
          <section
            key={section.heading}
            className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
          >
            <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>{section.heading}</h2>
            {section.paragraphs.map((p) => (
              <p key={p} className={css({ lineHeight: '1.7' })}>
                {p}
              </p>
            ))}
          </section>
        ))}
      </article>
    </Container>
  );
}
