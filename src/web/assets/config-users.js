// @ts-check
/**
 * /config/users: the hub's users (config/auth/list), a new user with a login (config/auth/create, then
 * config/auth_provider/homeassistant/create), rename, admin or not, deactivate, delete, set a password; and for
 * everyone their own password change (config/auth_provider/homeassistant/change_password).
 */

import { checkedOf, FormDialog, html, inputValue, isAdmin, mount, myUserId, toast, tryCommand } from './app-common.js';
import { useEffect, useState } from './vendor/hooks.js';

/** @typedef {{ id: string, name: string, username: string | null, is_owner: boolean, is_active: boolean, group_ids: string[] }} UserInfo */

/** @param {{ onClose: () => void, onSaved: () => void }} props */
function AddUser({ onClose, onSaved }) {
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [admin, setAdmin] = useState(false);
  const submit = async () => {
    if (password !== again) {
      toast('The passwords do not match.');
      return false;
    }
    const made = await tryCommand({ type: 'config/auth/create', name, group_ids: [admin ? 'system-admin' : 'system-users'] });
    if (made === undefined) return false;
    const login = await tryCommand({ type: 'config/auth_provider/homeassistant/create', user_id: made.user.id, username, password });
    if (login === undefined) {
      await tryCommand({ type: 'config/auth/delete', user_id: made.user.id });
      return false;
    }
    onSaved();
  };
  return html`<${FormDialog} title="Add user" onClose=${onClose} onSubmit=${submit} submitLabel="Create">
    <label>Display name<input name="name" required value=${name} onInput=${(/** @type {Event} */ e) => {
      const v = inputValue(e);
      setName(v);
      if (username === '' || username === name.toLowerCase().replace(/[^a-z0-9]/g, ''))
        setUsername(v.toLowerCase().replace(/[^a-z0-9]/g, ''));
    }} /></label>
    <label>Username<input name="username" required autocapitalize="none" value=${username} onInput=${(/** @type {Event} */ e) => setUsername(inputValue(e))} /></label>
    <label>Password<input name="password" type="password" required autocomplete="new-password" value=${password} onInput=${(/** @type {Event} */ e) => setPassword(inputValue(e))} /></label>
    <label>Password again<input name="password_again" type="password" required autocomplete="new-password" value=${again} onInput=${(/** @type {Event} */ e) => setAgain(inputValue(e))} /></label>
    <label class="check"><input type="checkbox" name="admin" checked=${admin} onChange=${(/** @type {Event} */ e) => setAdmin(checkedOf(e))} /> Administrator</label>
  </${FormDialog}>`;
}

/** @param {{ user: UserInfo, onClose: () => void, onSaved: () => void }} props */
function EditUser({ user, onClose, onSaved }) {
  const [name, setName] = useState(user.name);
  const [admin, setAdmin] = useState(user.group_ids.includes('system-admin'));
  const [active, setActive] = useState(user.is_active);
  const [password, setPassword] = useState('');
  const self = user.id === myUserId;
  const submit = async () => {
    const changed = await tryCommand({
      type: 'config/auth/update',
      user_id: user.id,
      name,
      group_ids: [admin ? 'system-admin' : 'system-users'],
      is_active: active,
    });
    if (changed === undefined) return false;
    if (
      password !== '' &&
      (await tryCommand({ type: 'config/auth_provider/homeassistant/admin_change_password', user_id: user.id, password })) === undefined
    )
      return false;
    onSaved();
  };
  const remove = async () => {
    if (!confirm(`Delete ${user.name}?`)) return;
    if ((await tryCommand({ type: 'config/auth/delete', user_id: user.id })) !== undefined) {
      onSaved();
      onClose();
    }
  };
  return html`<${FormDialog} title=${`Edit ${user.name}`} onClose=${onClose} onSubmit=${submit}
    extra=${user.is_owner || self ? null : html`<button type="button" class="danger" onClick=${remove}>Delete</button>`}>
    <p class="muted">Username: ${user.username ?? 'none (cannot log in)'}</p>
    <label>Display name<input name="name" required value=${name} onInput=${(/** @type {Event} */ e) => setName(inputValue(e))} /></label>
    <label class="check"><input type="checkbox" name="admin" checked=${admin} disabled=${user.is_owner} onChange=${(/** @type {Event} */ e) => setAdmin(checkedOf(e))} /> Administrator</label>
    <label class="check"><input type="checkbox" name="active" checked=${active} disabled=${user.is_owner || self} onChange=${(/** @type {Event} */ e) => setActive(checkedOf(e))} /> Active (can log in)</label>
    ${user.username === null ? null : html`<label>New password (leave empty to keep)<input name="new_password" type="password" autocomplete="new-password" value=${password} onInput=${(/** @type {Event} */ e) => setPassword(inputValue(e))} /></label>`}
  </${FormDialog}>`;
}

function ChangeOwnPassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const submit = async (/** @type {Event} */ e) => {
    e.preventDefault();
    if (next !== again) return toast('The new passwords do not match.');
    const done = await tryCommand({
      type: 'config/auth_provider/homeassistant/change_password',
      current_password: current,
      new_password: next,
    });
    if (done === undefined) return;
    setCurrent('');
    setNext('');
    setAgain('');
    toast('Your password was changed.');
  };
  return html`<form class="panel form-grid own-password" onSubmit=${submit}>
    <h2>Change your password</h2>
    <label>Current password<input type="password" name="current_password" autocomplete="current-password" required value=${current} onInput=${(/** @type {Event} */ e) => setCurrent(inputValue(e))} /></label>
    <label>New password<input type="password" name="new_password" autocomplete="new-password" required value=${next} onInput=${(/** @type {Event} */ e) => setNext(inputValue(e))} /></label>
    <label>New password again<input type="password" name="new_password_again" autocomplete="new-password" required value=${again} onInput=${(/** @type {Event} */ e) => setAgain(inputValue(e))} /></label>
    <div class="actions"><button type="submit" class="primary">Change password</button></div>
  </form>`;
}

function App() {
  const [users, setUsers] = useState(/** @type {UserInfo[] | null} */ (null));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState(/** @type {UserInfo | null} */ (null));
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (isAdmin) tryCommand({ type: 'config/auth/list' }).then((list) => list !== undefined && setUsers(list));
  }, [version]);
  const reload = () => setVersion((v) => v + 1);
  return html`${
    isAdmin
      ? html`<div class="bar"><span class="grow"></span><button type="button" class="primary" onClick=${() => setAdding(true)}>Add user</button></div>
    ${
      users === null
        ? html`<p class="loading">Loading…</p>`
        : html`<div class="table-wrap"><table class="list users">
      <thead><tr><th>Name</th><th>Username</th><th>Group</th><th>Status</th><th></th></tr></thead>
      <tbody>${users.map(
        (u) => html`<tr key=${u.id} data-user=${u.username ?? u.id}>
        <td class="name">${u.name}${u.is_owner ? html` <span class="chip">Owner</span>` : null}</td>
        <td>${u.username ?? html`<span class="muted">none</span>`}</td>
        <td>${u.group_ids.includes('system-admin') ? 'Administrators' : 'Users'}</td>
        <td>${u.is_active ? 'Active' : html`<span class="muted">Deactivated</span>`}</td>
        <td><button type="button" onClick=${() => setEditing(u)}>Edit</button></td>
      </tr>`,
      )}</tbody></table></div>`
    }`
      : html`<p class="notice">Only administrators manage users. You can change your own password below.</p>`
  }
  <${ChangeOwnPassword} />
  ${adding ? html`<${AddUser} onClose=${() => setAdding(false)} onSaved=${reload} />` : null}
  ${editing !== null ? html`<${EditUser} key=${editing.id} user=${editing} onClose=${() => setEditing(null)} onSaved=${reload} />` : null}`;
}

mount(App);
