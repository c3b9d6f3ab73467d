export * from './admin';
export * from './auth';
export * from './config';
export * from './contact';
export * from './user';
