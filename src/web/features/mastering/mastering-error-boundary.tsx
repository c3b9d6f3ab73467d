import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { TEXT } from './mastering-texts';

interface State {
  error: unknown;
}

/** Spec 2's error screen for a crash of the mastering view. */
export class MasteringErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error(TEXT.unknownError) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Kept in the console for whoever debugs it; the screen shows the message.
    console.warn('Mastering view crashed', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const message = error instanceof Error && error.message ? error.message : TEXT.unknownError;
    return (
      <Card role="alert" className="mx-auto grid max-w-xl gap-3 text-center" data-testid="mastering-error">
        <h2 className="text-xl font-semibold text-red-300">{TEXT.errorTitle}</h2>
        <p className="text-zinc-300">{TEXT.errorText}</p>
        <p className="font-mono text-sm text-zinc-400">{message}</p>
        <div>
          <Button onClick={() => window.location.reload()}>{TEXT.refresh}</Button>
        </div>
      </Card>
    );
  }
}
