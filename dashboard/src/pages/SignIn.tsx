import { Alert, Button, Container, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { api, failureMessage, type Session } from "../api";

/** Email and password, or the one-time link the operator's CLI printed (`#/link/<token>`). */
export function SignIn({ linkToken, onSignedIn }: { linkToken?: string; onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const attempt = async (path: string, body: unknown) => {
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api.send<Session>("POST", path, body));
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  // Once per link: `attempt` is made anew at every render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the link alone decides
  useEffect(() => {
    if (linkToken) void attempt("/dashboard/session/link", { token: linkToken });
  }, [linkToken]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void attempt("/dashboard/session", { email, password });
  };

  return (
    <Container size={420} my="xl" component="main">
      <Title order={1} mb="md">
        Sign in to Porter
      </Title>
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={submit} aria-label="Sign in">
          <Stack>
            {error && (
              <Alert color="red" role="alert" title="Not signed in">
                {error}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
            <Text size="sm">
              No password yet? Ask your operator for a sign-in link (<code>porter users sign-in-link</code>).
            </Text>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
