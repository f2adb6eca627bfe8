import {
  Alert,
  Button,
  Card,
  Checkbox,
  CopyButton,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from "@mantine/core";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { api, failureMessage } from "../api";
import { ColumnHeads } from "../ColumnHeads";
import { Feedback } from "../Feedback";
import { PageTitle } from "../PageTitle";

/** The roles of src/domain/accounts/roles.ts, with what each allows (docs/security.md, Roles). */
const ROLES = [
  { value: "Owner", label: "Owner: administers the account" },
  { value: "Primary", label: "Primary: administers the account" },
  { value: "API", label: "API: holds keys and ships" },
  { value: "Billing", label: "Billing: pays" },
  { value: "Member", label: "Member: nothing yet" },
];

interface User {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  roles: string[];
  api_keys: { mode: string; api_key: string; created_at: string }[];
}

/**
 * What every dialog here shares: a name for the close button, which shows only an icon, and no
 * scroll lock, whose <style> element the Content-Security-Policy refuses.
 */
const DIALOG = { closeButtonProps: { "aria-label": "Close" }, lockScroll: false };

type NewKeys = { test?: string; production?: string };

/** The account's users: add one, change roles, rotate a key (new keys are shown once, in a dialog). */
export function UsersPage() {
  const [users, setUsers] = useState<User[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [keys, setKeys] = useState<{ email: string; keys: NewKeys } | null>(null);
  const [editing, setEditing] = useState<User | null>(null);

  const load = useCallback(() => {
    api.get<{ users: User[] }>("/api/v2/users").then(
      (answer) => setUsers(answer.users),
      (failure) => setError(failureMessage(failure)),
    );
  }, []);
  useEffect(load, [load]);

  const rotate = async (user: User) => {
    setError(null);
    try {
      const answer = await api.send<{ api_keys: NewKeys }>("POST", `/api/v2/users/${user.id}/keys/rotate`);
      setKeys({ email: user.email, keys: answer.api_keys });
      load();
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };

  return (
    <>
      <PageTitle>Users</PageTitle>
      <Feedback error={error} />
      {!users && !error && <Loader aria-label="Loading the users" />}
      {users && (
        <Table mb="sm">
          <ColumnHeads names={["Email", "Name", "Roles", "API keys", "Actions"]} />
          <Table.Tbody>
            {users.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>{[user.first_name, user.last_name].filter(Boolean).join(" ") || "—"}</Table.Td>
                <Table.Td>{user.roles.join(", ") || "—"}</Table.Td>
                <Table.Td>
                  {user.api_keys.length === 0
                    ? "—"
                    : user.api_keys.map((k) => (
                        <Text key={k.mode} size="sm" ff="monospace">
                          {k.api_key}
                        </Text>
                      ))}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => setEditing(user)}>
                      Change roles<VisuallyHidden> of {user.email}</VisuallyHidden>
                    </Button>
                    {user.roles.includes("API") && (
                      <Button size="xs" variant="default" onClick={() => rotate(user)}>
                        Rotate key<VisuallyHidden> of {user.email}</VisuallyHidden>
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="sm" mb="lg">
        Rotate key replaces the user's key of the mode the dashboard is in (test or production); the old key stops
        working at once.
      </Text>
      <AddUser
        onAdded={(email, added) => {
          if (added) setKeys({ email, keys: added });
          load();
        }}
      />
      {editing && (
        <ChangeRoles
          user={editing}
          onClose={() => setEditing(null)}
          onSaved={(added) => {
            if (added) setKeys({ email: editing.email, keys: added });
            setEditing(null);
            load();
          }}
        />
      )}
      {keys && <KeysOnce email={keys.email} keys={keys.keys} onClose={() => setKeys(null)} />}
    </>
  );
}

function RoleBoxes({ value, onChange }: { value: string[]; onChange: (roles: string[]) => void }) {
  return (
    <Checkbox.Group label="Roles" value={value} onChange={onChange}>
      <Stack gap="xs" mt="xs">
        {ROLES.map((role) => (
          <Checkbox key={role.value} value={role.value} label={role.label} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

function AddUser({ onAdded }: { onAdded: (email: string, keys: NewKeys | undefined) => void }) {
  const [email, setEmail] = useState("");
  const [roles, setRoles] = useState<string[]>(["API"]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const answer = await api.send<{ user: User; api_keys?: NewKeys }>("POST", "/api/v2/users", {
        user: { email, roles },
      });
      setEmail("");
      onAdded(answer.user.email, answer.api_keys);
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder maw={480} component="form" onSubmit={submit}>
      <Text fw={700} component="h2" mb="sm">
        Add a user
      </Text>
      <Stack>
        <TextInput
          label="Email"
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <RoleBoxes value={roles} onChange={setRoles} />
        <Feedback error={error} />
        <Button type="submit" loading={busy} disabled={roles.length === 0}>
          Add user
        </Button>
      </Stack>
    </Card>
  );
}

function ChangeRoles({
  user,
  onClose,
  onSaved,
}: {
  user: User;
  onClose: () => void;
  onSaved: (keys: NewKeys | undefined) => void;
}) {
  const [roles, setRoles] = useState(user.roles);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setError(null);
    try {
      const answer = await api.send<{ api_keys?: NewKeys }>("PUT", `/api/v2/users/${user.id}`, { user: { roles } });
      onSaved(answer.api_keys);
    } catch (failure) {
      setError(failureMessage(failure));
    }
  };
  return (
    <Modal opened onClose={onClose} {...DIALOG} title={`Roles of ${user.email}`}>
      <Stack>
        <RoleBoxes value={roles} onChange={setRoles} />
        {user.roles.includes("API") && !roles.includes("API") && (
          <Text size="sm">Without the API role, the user's keys stop working at once.</Text>
        )}
        <Feedback error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} disabled={roles.length === 0}>
            Save roles
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** New keys exist only in the answer that made them: this dialog is the one chance to copy them. */
function KeysOnce({ email, keys, onClose }: { email: string; keys: NewKeys; onClose: () => void }) {
  const shown = [
    { label: "Test key", value: keys.test },
    { label: "Production key", value: keys.production },
  ].filter((k): k is { label: string; value: string } => k.value !== undefined);
  return (
    <Modal
      opened
      onClose={onClose}
      {...DIALOG}
      title={`New API ${shown.length > 1 ? "keys" : "key"} for ${email}`}
      size="lg"
    >
      <Stack>
        <Alert color="yellow" title="Copy it now">
          {shown.length > 1 ? "These keys" : "This key"} will not be shown again: Porter keeps only a hash. If it is
          lost, rotate the key again.
        </Alert>
        {shown.map((key) => (
          <Group key={key.label} align="flex-end" wrap="nowrap">
            <TextInput label={key.label} value={key.value} readOnly ff="monospace" className="key-once" />
            <CopyButton value={key.value}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? "Copied" : "Copy"}
                  <VisuallyHidden> the {key.label.toLowerCase()}</VisuallyHidden>
                </Button>
              )}
            </CopyButton>
          </Group>
        ))}
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
