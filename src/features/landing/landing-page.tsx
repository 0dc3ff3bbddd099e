import type { CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { appConfig } from '@/lib/config.ts';
import { buttonClass } from '@/ui/button.tsx';
import { Container } from '@/ui/container.tsx';

/** docs/product-rules.md §9 landing animation timings, in seconds. */
const HERO_S = 0.8;
const STEP_S = 0.5;
const STEP_STAGGER_S = 0.3;
const STEP_DELAY_S = 0.4;

const STEPS = [
  {
    title: 'Cadastre-se ou faça login',
    text: 'Crie sua conta em segundos ou acesse com seu e-mail e senha.',
  },
  {
    title: 'Escolha o médico e o horário',
    text: 'Veja a lista de profissionais e selecione o dia e o horário que forem melhores para você.',
  },
  {
    title: 'Confirme e pronto',
    text: 'Confirme o pagamento e receba a confirmação do seu agendamento imediatamente.',
  },
] as const;

const fadeUp = css({
  animationName: 'fadeUp',
  animationTimingFunction: 'ease-out',
  animationFillMode: 'both',
});

function animation(durationS: number, delayS = 0): CSSProperties {
  return { animationDuration: `${durationS}s`, animationDelay: `${delayS}s` };
}

export function LandingPage() {
  return (
    <>
      <section
        className={css({
          bgGradient: 'to-b',
          gradientFrom: 'primary.subtle',
          gradientTo: 'bg.canvas',
          py: { base: '10', md: '16' },
        })}
      >
        <Container
          className={css({
            display: 'grid',
            gridTemplateColumns: { base: 'minmax(0, 1fr)', md: '1.05fr 1fr' },
            alignItems: 'center',
            gap: { base: '8', md: '12' },
          })}
        >
          <div className={fadeUp} style={animation(HERO_S)}>
            <p
              className={css({
                display: 'inline-block',
                fontSize: 'sm',
                fontWeight: 'semibold',
                color: 'primary.text',
                bg: 'primary.muted',
                px: '3',
                py: '1',
                borderRadius: 'full',
                mb: '4',
              })}
            >
              Teleconsulta com médicos qualificados
            </p>
            <h1
              className={css({
                fontSize: { base: '4xl', md: '5xl' },
                lineHeight: '1.1',
                fontWeight: 'extrabold',
                letterSpacing: 'tight',
                color: 'fg',
              })}
            >
              Sua saúde a um clique de distância
            </h1>
            <p className={css({ mt: '5', fontSize: { base: 'lg', md: 'xl' }, color: 'fg.muted' })}>
              Agende sua consulta de telemedicina de forma rápida, segura e sem sair de casa.
            </p>
            <Link
              to="/agendamentos"
              className={buttonClass(
                { size: 'lg' },
                css({
                  mt: '8',
                  w: { base: 'full', sm: 'auto' },
                  boxShadow: 'card',
                  // One line where it fits; two on the smallest phones rather than a wider page.
                  whiteSpace: { base: 'normal', sm: 'nowrap' },
                  textAlign: 'center',
                }),
              )}
            >
              Agendar Teleconsulta Agora
            </Link>
          </div>
          <div className={fadeUp} style={animation(HERO_S)}>
            <img
              src="/images/hero-teleconsulta.svg"
              width={560}
              height={440}
              alt={`Equipe médica atendendo uma paciente por videochamada, com o logotipo da ${appConfig.productName}`}
              className={css({ w: 'full', h: 'auto', maxW: 'xl', mx: 'auto' })}
              fetchPriority="high"
            />
          </div>
        </Container>
      </section>
      <section aria-labelledby="como-funciona" className={css({ py: { base: '12', md: '16' } })}>
        <Container>
          <h2
            id="como-funciona"
            className={css({
              textAlign: 'center',
              fontSize: { base: '2xl', md: '3xl' },
              fontWeight: 'bold',
            })}
          >
            Como funciona? É simples!
          </h2>
          <ol
            className={css({
              mt: '10',
              display: 'grid',
              gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' },
              gap: '6',
            })}
          >
            {STEPS.map((step, index) => (
              <li
                key={step.title}
                className={`${fadeUp} ${css({
                  bg: 'bg.surface',
                  borderWidth: '1px',
                  borderColor: 'border',
                  borderRadius: 'xl',
                  boxShadow: 'card',
                  p: '6',
                })}`}
                style={animation(STEP_S, STEP_DELAY_S + index * STEP_STAGGER_S)}
              >
                <span
                  aria-hidden="true"
                  className={css({
                    display: 'inline-flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                    w: '10',
                    h: '10',
                    borderRadius: 'full',
                    bg: 'primary',
                    color: 'primary.fg',
                    fontWeight: 'bold',
                  })}
                >
                  {index + 1}
                </span>
                <h3 className={css({ mt: '4', fontSize: 'lg', fontWeight: 'bold' })}>
                  <span className={css({ srOnly: true })}>Passo {index + 1}: </span>
                  {step.title}
                </h3>
                <p className={css({ mt: '2', color: 'fg.muted' })}>{step.text}</p>
              </li>
            ))}
          </ol>
        </Container>
      </section>
    </>
  );
}
