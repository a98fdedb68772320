// A request's path as logs keep it. Query strings are never logged (they carry API tokens); a share
// link's token is in its path (/shared/<token>/…) and is as good as a password, so it is masked.
export const loggedPath = (path: string): string => path.replace(/^\/shared\/[^/?]+/, '/shared/…');
