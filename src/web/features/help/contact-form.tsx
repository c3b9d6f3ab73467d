import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { ContactBody } from '../../../shared/api/contact';
import type { MessageResponse } from '../../../shared/api/user';
import { MESSAGES } from '../../../shared/messages';
import { useAuth } from '../../app/auth-context';
import { FormField } from '../../components/form-field';
import { Button } from '../../components/ui/button';
import { Label, Textarea } from '../../components/ui/input';
import { toast } from '../../components/ui/use-toast';
import { apiJson, userMessage } from '../../lib/api-client';

const empty: ContactBody = { name: '', email: '', subject: '', message: '' };

export function ContactForm() {
  const { user } = useAuth();
  const messageId = useId();
  const [form, setForm] = useState<ContactBody>(() => ({ ...empty, email: user?.email ?? '' }));
  const set = (key: keyof ContactBody) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const send = useMutation({
    mutationFn: (body: ContactBody) => apiJson<MessageResponse>('POST', '/api/contact', body),
    onSuccess: (res) => {
      toast({ title: 'Message Sent', description: res.message || MESSAGES.contactSent });
      setForm({ ...empty, email: user?.email ?? '' });
    },
    onError: (err) =>
      toast({
        title: 'Failed to Send',
        description: userMessage(err, 'Please try again later'),
        variant: 'destructive',
      }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.values(form).some((v) => !v.trim())) {
      toast({ title: 'Missing Information', description: MESSAGES.contactMissing, variant: 'destructive' });
      return;
    }
    send.mutate(form);
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Contact Us">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" autoComplete="name" value={form.name} onChange={set('name')} />
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={set('email')}
        />
      </div>
      <FormField label="Subject" value={form.subject} onChange={set('subject')} />
      <div className="grid gap-2">
        <Label htmlFor={messageId}>Message</Label>
        <Textarea id={messageId} value={form.message} onChange={set('message')} />
      </div>
      <Button type="submit" disabled={send.isPending} className="justify-self-start">
        {send.isPending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
