/** User-facing texts of failures (docs/product-rules.md §8), in one place so every screen says the same thing. */
export const ERROR_MESSAGES = {
  timeout: 'A requisição demorou muito para responder. Verifique sua conexão.',
  retriesExhausted: 'Não foi possível carregar os dados após várias tentativas.',
  network: 'Não foi possível contatar o servidor agora. Verifique a conexão e tente novamente.',
  notAuthenticated: 'Usuário não autenticado.',
  invalidCredentials: 'Email ou senha inválidos.',
  emailNotConfirmed:
    'Seu e-mail ainda não foi confirmado. Por favor, verifique sua caixa de entrada e clique no link de confirmação.',
  userAlreadyExists: 'Este e-mail já está cadastrado.',
  weakPassword: 'A senha deve ter no mínimo 8 caracteres',
  samePassword: 'A nova senha deve ser diferente da senha atual.',
  emailInvalid: 'Endereço de e-mail inválido',
  validationFailed: 'Verifique os dados informados e tente novamente.',
  emailRateLimit: 'Muitas tentativas de envio de e-mail. Aguarde alguns minutos e tente novamente.',
  requestRateLimit: 'Muitas tentativas. Aguarde alguns minutos e tente novamente.',
  signupDisabled: 'Novos cadastros estão temporariamente indisponíveis.',
  sessionExpired: 'Sua sessão expirou. Abra novamente o link recebido por e-mail.',
  slotTaken: 'Este horário já foi reservado.',
  unpaidLimit:
    'Você já tem reservas não pagas demais. Conclua ou cancele uma delas antes de agendar outra.',
  scheduleOverlap:
    'Verifique os blocos de horário. O horário final deve ser maior que o inicial e não deve haver sobreposição.',
  bookingFailed: 'Não foi possível concluir seu agendamento agora. Tente novamente.',
  permissionDenied: 'Você não tem permissão para realizar esta ação.',
  notFound: 'Registro não encontrado.',
  serverUnavailable: 'O servidor está indisponível no momento. Tente novamente em instantes.',
  invalidRequest: 'Não foi possível processar os dados enviados.',
  unknown: 'Ocorreu um erro inesperado. Tente novamente.',
  storageFull: 'Sem espaço no dispositivo para salvar. Libere espaço e tente novamente.',
  replicaUnavailable: 'Não foi possível abrir os dados salvos neste aparelho.',
} as const;
