// A request's path as logs keep it. Query strings are never logged (they carry API tokens); a share
// link's token is in its path (/shared/<token>/…) and is as good as a password, so it is masked in
// whatever case and with however many slashes the prefix came: a path the routes refuse (404) still
// carried a token somebody holds.
export const loggedPath = (path: string): string => path.replace(/^(\/+shared\/+)[^/?]+/i, '$1…');
