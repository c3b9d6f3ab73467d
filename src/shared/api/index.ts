export * from './admin';
export * from './auth';
export * from './billing';
export * from './config';
export * from './contact';
export * from './sessions';
export * from './tracks';
export * from './user';
