export * from './clip';
export * from './history';
export * from './mix-styles';
export * from './preview-window';
export * from './saved-clips';
export * from './timeline';
export * from './transport';
