throw new Error('cannot start');
