import { type UseMutationResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useState } from 'react';
import type { LoginBody, RegisterBody } from '../../shared/api/auth';
import type { LoginResponse, PublicUser } from '../../shared/api/user';
import { toast } from '../components/ui/use-toast';
import { apiJson, apiRequest, errorCode, userMessage } from '../lib/api-client';
import { getQueryFn, USER_QUERY_KEY } from '../lib/query-client';
import { AUTH_TOKEN_KEY, removeStorage, writeStorage } from '../lib/storage';

interface AuthContextValue {
  user: PublicUser | null;
  isLoading: boolean;
  loginMutation: UseMutationResult<LoginResponse, Error, LoginBody>;
  registerMutation: UseMutationResult<LoginResponse, Error, Required<RegisterBody>>;
  logoutMutation: UseMutationResult<void, Error, void>;
  /** Forgets the signed-in user in this browser (after logout or account deletion). */
  clearLocalSession: () => Promise<void>;
  /**
   * Where a protected page sends a visitor who is no longer signed in: /auth, or the page named by
   * `leaveTo` once the user has started leaving on purpose (account deletion goes home).
   */
  signedOutTarget: string;
  /** Called before a request that ends the session, so no guard sends the user to /auth meanwhile. */
  leaveTo: (path: string) => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** The user without the token: the token goes to storage, never into the query cache. */
const withoutToken = ({ authToken: _token, ...user }: LoginResponse): PublicUser => user;

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Spec 4: a 401 here means "nobody is signed in", not an error.
  const userQuery = useQuery<PublicUser | null>({
    queryKey: USER_QUERY_KEY,
    queryFn: getQueryFn<PublicUser>({ on401: 'returnNull' }),
  });

  // Any user query answered after the session ended (a refetch racing the deletion) reads null: the
  // protected page must then send the user where the deletion was going, not to /auth.
  const [signedOutTarget, setSignedOutTarget] = useState('/auth');

  const signedIn = (res: LoginResponse) => {
    setSignedOutTarget('/auth');
    if (res.authToken) writeStorage(AUTH_TOKEN_KEY, res.authToken);
    queryClient.setQueryData(USER_QUERY_KEY, withoutToken(res));
  };

  const clearLocalSession = async () => {
    removeStorage(AUTH_TOKEN_KEY);
    queryClient.setQueryData(USER_QUERY_KEY, null);
    // Another account may sign in next on this browser: nothing of this user's may linger.
    queryClient.removeQueries({ queryKey: ['/api/admin/stats'] });
    queryClient.removeQueries({ queryKey: ['/api/billing/payment-methods'] });
    queryClient.removeQueries({ queryKey: ['/api/auth/sessions'] });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['/api/sessions'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/tracks'] }),
    ]);
  };

  const loginMutation = useMutation<LoginResponse, Error, LoginBody>({
    mutationFn: (body) => apiJson<LoginResponse>('POST', '/api/auth/login', body),
    onSuccess: (res) => {
      signedIn(res);
      toast({ title: 'Login successful', description: `Welcome back, ${res.username}!` });
    },
    onError: (error) => {
      // A second factor being asked for is the next step of the login form, not a failure.
      if (errorCode(error) === 'two_factor_required') return;
      toast({
        title: 'Login failed',
        description: userMessage(error, 'Login failed'),
        variant: 'destructive',
      });
    },
  });

  const registerMutation = useMutation<LoginResponse, Error, Required<RegisterBody>>({
    mutationFn: (body) => apiJson<LoginResponse>('POST', '/api/auth/register', body),
    onSuccess: (res) => {
      signedIn(res);
      toast({
        title: 'Registration successful',
        description: `Welcome to Master Your Mix, ${res.username}!`,
      });
    },
    onError: (error) => {
      toast({
        title: 'Registration failed',
        description: userMessage(error, 'Registration failed'),
        variant: 'destructive',
      });
    },
  });

  const logoutMutation = useMutation<void, Error, void>({
    mutationFn: async () => {
      await apiRequest('POST', '/api/auth/logout');
    },
    onSuccess: async () => {
      await clearLocalSession();
      toast({ title: 'Logged out', description: 'You have been logged out successfully.' });
    },
    onError: (error) => {
      toast({
        title: 'Logout failed',
        description: userMessage(error, 'Logout failed'),
        variant: 'destructive',
      });
    },
  });

  const value: AuthContextValue = {
    user: userQuery.data ?? null,
    isLoading: userQuery.isLoading,
    loginMutation,
    registerMutation,
    logoutMutation,
    clearLocalSession,
    signedOutTarget,
    leaveTo: setSignedOutTarget,
  };
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
